"""The extra views a photo reader may run, each a detector wrapping another; composed by :mod:`vision.read.pipeline`."""
