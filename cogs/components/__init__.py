"""Buttons and forms: persistent buttons whose custom_id carries all they need (:mod:`.buttons`),
what each does (:mod:`.actions`), the move picker, the bids and the pages of game lists."""
