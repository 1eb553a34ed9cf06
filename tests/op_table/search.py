ROWS: list = []
