"""A bundled end-to-end demo: python -m paddle_compat.demo."""
