"""The lab: measuring readers on rendered, real and recorded images (readers built by :mod:`vision.read.pipeline`)."""
