"""The runtime of tile reading: build a reader with :mod:`vision.read.pipeline`; imports no lab module."""
