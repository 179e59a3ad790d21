"""Text-generation backends shared by the counterfactual rewriter, LLM triage scoring and the implicit-bias study."""

from biasmirror.backends.base import ChatBackend, ChatMessage, Generation, GenerationRequest, request_key

__all__ = ["ChatBackend", "ChatMessage", "Generation", "GenerationRequest", "request_key"]
