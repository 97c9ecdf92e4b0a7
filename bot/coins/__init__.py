"""Coins (the University Gambling Rules): wallets, the ledger and staked games (service), and the
rules themselves as pure functions (rules)."""
