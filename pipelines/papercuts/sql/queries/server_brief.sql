-- A server named by an investigation: its id and CPU.
SELECT id, cpu_model FROM servers WHERE id = $id;
