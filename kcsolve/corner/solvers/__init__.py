"""The solvers: the best line of one turn, and the two-player open-hands solver."""
