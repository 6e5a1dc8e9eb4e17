"""posenc/experiment/runtime.py: thread count, deterministic kernels, device choice."""

from __future__ import annotations

import os
import re

import pytest
import torch

from posenc.experiment import runtime


@pytest.fixture(autouse=True)
def restore():
    threads, deterministic = torch.get_num_threads(), torch.are_deterministic_algorithms_enabled()
    yield
    torch.set_num_threads(threads)
    torch.use_deterministic_algorithms(deterministic)


def test_setup_fixes_threads_and_asks_for_deterministic_kernels():
    torch.use_deterministic_algorithms(False)
    assert runtime.setup(1, "cpu") == torch.device("cpu")
    assert torch.get_num_threads() == 1
    assert torch.are_deterministic_algorithms_enabled() and torch.is_deterministic_algorithms_warn_only_enabled()
    assert runtime.DEFAULT_THREADS == 2


@pytest.mark.parametrize("threads", [0, -1, 1.5, True, "2"])
def test_bad_thread_counts_name_the_fix(threads):
    with pytest.raises(ValueError, match="threads must be a positive integer.*--threads 2"):
        runtime.setup(threads)


def test_device_choice():
    assert runtime.resolve_device("cpu") == torch.device("cpu")
    assert runtime.resolve_device("auto") == torch.device("cuda" if torch.cuda.is_available() else "cpu")
    with pytest.raises(ValueError, match="unsupported device 'meta'; use cpu, cuda or auto"):
        runtime.resolve_device("meta")
    if not torch.cuda.is_available():
        with pytest.raises(ValueError, match="--device cuda asked for CUDA.*use --device cpu"):
            runtime.resolve_device("cuda")


def test_a_cuda_device_gets_cublas_deterministic_workspace(monkeypatch):
    # cuBLAS matmuls are deterministic only with this workspace setting (torch docs, "Reproducibility");
    # the device is stood in for, so this runs without a GPU.
    monkeypatch.delenv("CUBLAS_WORKSPACE_CONFIG", raising=False)
    monkeypatch.setattr(runtime, "resolve_device", lambda device: torch.device("cuda"))
    assert runtime.setup(1, "cuda") == torch.device("cuda")
    assert os.environ["CUBLAS_WORKSPACE_CONFIG"] == ":4096:8"
    monkeypatch.setenv("CUBLAS_WORKSPACE_CONFIG", ":16:8")  # a setting the user chose stays
    runtime.setup(1, "cuda")
    assert os.environ["CUBLAS_WORKSPACE_CONFIG"] == ":16:8"


def test_a_cpu_device_leaves_the_cublas_setting_alone(monkeypatch):
    monkeypatch.delenv("CUBLAS_WORKSPACE_CONFIG", raising=False)
    runtime.setup(1, "cpu")
    assert "CUBLAS_WORKSPACE_CONFIG" not in os.environ


def test_setup_resolves_the_device_it_is_given(monkeypatch):
    asked = []
    monkeypatch.setattr(runtime, "resolve_device", lambda device: asked.append(device) or torch.device("cpu"))
    runtime.setup(1, "auto")
    assert asked == ["auto"]


def test_setup_defaults_to_two_threads_on_the_cpu():
    assert runtime.setup() == torch.device("cpu")
    assert torch.get_num_threads() == 2


def test_device_choice_when_a_gpu_is_seen(monkeypatch):
    # Only whether torch sees a GPU is stood in for: a torch.device is a name, made without one.
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    assert runtime.resolve_device("auto") == torch.device("cuda")
    assert runtime.resolve_device("cuda:1") == torch.device("cuda", 1)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert runtime.resolve_device("auto") == torch.device("cpu")
    with pytest.raises(ValueError, match=re.escape(f"--device cuda:1 asked for CUDA, but torch {torch.__version__} sees no GPU; use --device cpu")):
        runtime.resolve_device("cuda:1")
