"""Serving LLMs for the audit: vLLM as a local OpenAI-compatible server, and work spread over several endpoints.

* `environment`: where the vLLM installation is (an environment of its own on a machine without a GPU, made by
  `make vllm`) and the engine settings a CPU needs;
* `local_server`: `LocalVllmServer`, a vLLM server on 127.0.0.1 started and stopped by a command or a test, with
  LoRA adapters served by name;
* `endpoints`: `EndpointPool`, which sends batches of work to several OpenAI-compatible endpoints at once, each
  batch to exactly one of them.
"""
