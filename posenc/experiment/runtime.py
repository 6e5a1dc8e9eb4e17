"""Process-wide settings that make runs repeatable: thread count, deterministic kernels, device."""

from __future__ import annotations

import os

import torch

DEFAULT_THREADS = 2  # the project's CI and dev machines have two cores


def setup(threads: int = DEFAULT_THREADS, device: str = "cpu") -> torch.device:
    """Fix the thread count and ask torch for deterministic kernels; return the device.

    On CPU the thread count barely matters for the numbers: runs with 1 and 2
    threads agreed within ≈1e-6 nats over the first steps (sums split across
    threads round differently), far inside verify's tolerance. It is still set
    explicitly, and recorded in the results.
    """
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise ValueError(f"threads must be a positive integer, got {threads!r}; the project uses --threads 2")
    torch.set_num_threads(threads)
    dev = resolve_device(device)
    if dev.type == "cuda":
        # cuBLAS needs this for deterministic matmuls (torch docs, "Reproducibility").
        os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
    torch.use_deterministic_algorithms(True, warn_only=True)
    return dev


def resolve_device(device: str) -> torch.device:
    if device == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    dev = torch.device(device)
    if dev.type == "cuda" and not torch.cuda.is_available():
        raise ValueError(f"--device {device} asked for CUDA, but torch {torch.__version__} sees no GPU; use --device cpu")
    if dev.type not in ("cpu", "cuda"):
        raise ValueError(f"unsupported device {device!r}; use cpu, cuda or auto")
    return dev
