"""Running deals: `simstats run` (runner, its options and folder, chunk records, the Dask
backend, stopping at a precision, `verify`), the compiled play loops and their Python entry
(loops, compiled_play), move-by-move play and its traces (move_by_move, playthrough), `simstats
solve` (solve) and compiling ahead (compiling). Nothing is imported here, so that the report can
read records without loading compiled code."""
