"""The patience Kings in the Corners: rules, engine, records, solvers, players and tools."""
