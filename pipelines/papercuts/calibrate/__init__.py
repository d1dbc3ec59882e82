"""`papercuts calibrate`: measure this machine's spin-wait building blocks into a calibration folder.

probe.py compiles and runs spin.c, machine.py reads the machine facts, files.py turns both into
the contract's files, catalogs.py adds the server and source rows, run.py does it in that order.
"""
