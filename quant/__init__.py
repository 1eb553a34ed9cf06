"""quant package (see ../shared/DESIGN.md); grows in later issues."""
