"""Volume controller libraries (upstream pkg/controller/volume)."""
