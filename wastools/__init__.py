"""wastools: War at Sea house-rule toolchain."""

__version__ = "0.1.0"
