"""Errors of the vision package. Each says what was wrong with which input."""

from __future__ import annotations


class VisionError(Exception):
    """Base of the vision package's errors."""


class UnreadableImage(VisionError, ValueError):
    """A file or buffer that is missing, empty, or not an image we can decode."""


class ModelError(VisionError, ValueError):
    """A detector model that is missing, unreadable, or whose inputs, outputs or class names do not fit."""


class ConfigError(VisionError, ValueError):
    """A reader configuration that names something unknown or out of range
    (:class:`vision.read.pipeline.ReaderConfig`)."""
