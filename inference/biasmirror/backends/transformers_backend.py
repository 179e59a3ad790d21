"""A local Hugging Face model directory run with `transformers` (CPU or GPU). Nothing is downloaded.

Prompts are built with the tokenizer's chat template (`apply_chat_template(..., add_generation_prompt=True)`);
a tokenizer without one gets a plain "role: content" transcript ending with "assistant:". Requests with the same
decoding parameters are batched (left padding). Decoding is greedy at temperature 0 and sampled otherwise
(seeded with the request's seed). Stop strings cut the decoded text after generation. A prompt longer than the
model's context is not run: it comes back empty with finish_reason "length".
"""

from __future__ import annotations

from itertools import groupby
from pathlib import Path
from typing import Any, Sequence

from biasmirror.backends.base import Generation, GenerationRequest


def plain_transcript(messages: Sequence[dict[str, str]]) -> str:
    """The prompt for a tokenizer without a chat template."""
    return "".join(f"{m['role']}: {m['content']}\n" for m in messages) + "assistant:"


def cut_at_stop(text: str, stop: Sequence[str]) -> tuple[str, bool]:
    """`text` up to the first stop string, and whether one was found."""
    cuts = [text.find(s) for s in stop if s and s in text]
    return (text[: min(cuts)], True) if cuts else (text, False)


class TransformersBackend:
    name = "transformers"
    is_local = True

    def __init__(self, model: str, device: str = "auto", dtype: str | None = None, batch_size: int = 8,
                 trust_remote_code: bool = False) -> None:
        path = Path(model).expanduser()
        if not path.is_dir() or not (path / "config.json").is_file():
            raise ValueError(f"the transformers backend needs a local model folder with a config.json; {model!r} "
                             "is not one (models are never downloaded: copy or export the model first)")
        if batch_size < 1:
            raise ValueError("batch_size must be at least 1")
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer

        self._torch = torch
        self.model = str(path.resolve())
        self.batch_size = int(batch_size)
        self.device = ("cuda" if torch.cuda.is_available() else "cpu") if device == "auto" else device
        torch_dtype: Any = getattr(torch, dtype) if dtype else (torch.bfloat16 if self.device.startswith("cuda") else torch.float32)
        self.tokenizer = AutoTokenizer.from_pretrained(path, local_files_only=True, trust_remote_code=trust_remote_code)
        self.tokenizer.padding_side = "left"
        if self.tokenizer.pad_token is None:
            self.tokenizer.pad_token = self.tokenizer.eos_token
        self.network = AutoModelForCausalLM.from_pretrained(path, local_files_only=True, dtype=torch_dtype,
                                                            trust_remote_code=trust_remote_code)
        self.network.to(self.device)
        self.network.eval()
        self.context_length = int(getattr(self.network.config, "max_position_embeddings", 0) or 0) or None

    def prompt(self, request: GenerationRequest) -> str:
        messages = [{"role": m.role, "content": m.content} for m in request.messages]
        if getattr(self.tokenizer, "chat_template", None):
            return self.tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
        return plain_transcript(messages)

    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]:
        results: list[Generation | None] = [None] * len(requests)

        def params(i: int) -> tuple[Any, ...]:
            r = requests[i]
            return (r.max_tokens, r.temperature, r.seed)

        order = sorted(range(len(requests)), key=lambda i: (str(params(i)), i))
        for _, group in groupby(order, key=params):
            indices = list(group)
            for start in range(0, len(indices), self.batch_size):
                chunk = indices[start : start + self.batch_size]
                for i, generation in zip(chunk, self._batch([requests[i] for i in chunk])):
                    results[i] = generation
        return [r for r in results if r is not None]

    def _batch(self, batch: Sequence[GenerationRequest]) -> list[Generation]:
        torch = self._torch
        first = batch[0]
        prompts = [self.prompt(r) for r in batch]
        lengths = [len(self.tokenizer(p, add_special_tokens=False)["input_ids"]) for p in prompts]
        fits = [self.context_length is None or n + r.max_tokens <= self.context_length for n, r in zip(lengths, batch)]
        out: list[Generation] = [Generation("", "length") for _ in batch]
        runnable = [i for i, ok in enumerate(fits) if ok]
        if not runnable:
            return out
        encoded = self.tokenizer([prompts[i] for i in runnable], return_tensors="pt", padding=True,
                                 add_special_tokens=False).to(self.device)
        options: dict[str, Any] = {"max_new_tokens": first.max_tokens, "pad_token_id": self.tokenizer.pad_token_id,
                                   "eos_token_id": self.tokenizer.eos_token_id}
        if first.temperature > 0:
            options.update(do_sample=True, temperature=first.temperature)
            if first.seed is not None:
                torch.manual_seed(first.seed)
        else:
            options.update(do_sample=False, temperature=None, top_p=None, top_k=None)
        with torch.inference_mode():
            generated = self.network.generate(**encoded, **options)
        new_tokens = generated[:, encoded["input_ids"].shape[1]:]
        eos = self.tokenizer.eos_token_id
        for row, i in enumerate(runnable):
            tokens = new_tokens[row].tolist()
            ended = eos is not None and eos in tokens
            if ended:
                tokens = tokens[: tokens.index(eos)]
            tokens = [t for t in tokens if t != self.tokenizer.pad_token_id]
            text = self.tokenizer.decode(tokens, skip_special_tokens=True)
            text, stopped = cut_at_stop(text, batch[i].stop)
            finish = "stop" if ended or stopped or len(tokens) < batch[i].max_tokens else "length"
            out[i] = Generation(text, finish)
        return out
