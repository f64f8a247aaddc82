"""What the Pi never runs: the lab commands (synthesis, training, evaluation, benchmarks, conformance) and the
demo recording's renderer. The runtime names these modules (``device.cli.LAB_COMMAND_MODULES``) and never imports
them."""
