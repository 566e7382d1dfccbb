"""The files of Kings Corner: hand and game records (replayed and judged), position files, saved games."""
