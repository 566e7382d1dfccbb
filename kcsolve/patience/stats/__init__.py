"""Win rates over ranges of deal numbers: the results store, chunked runs on a pool or a Dask cluster, summaries."""
