-- The newest date the data holds (a campaign's or a calibration's): what "as of" means on an embed.
SELECT coalesce(greatest((SELECT max(date) FROM campaigns), (SELECT max(date) FROM calibrations)),
                (SELECT max(date) FROM campaigns), (SELECT max(date) FROM calibrations))::VARCHAR AS as_of;
