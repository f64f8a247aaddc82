"""What the Pi never runs: the lab's command line ``jantaku-lab`` (:mod:`device.lab.cli`: synthesis, training,
evaluation, benchmarks, conformance) and the demo recording's renderer. No runtime module imports or names these
modules (tests/test_architecture.py)."""
