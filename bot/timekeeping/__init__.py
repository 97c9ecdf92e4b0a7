"""Time: where the services read the clock from, time controls, when a turn ends and its player
is reminded, clocks that stand still (vacations, pauses, more time), deadlines and the one
scheduler that wakes for them."""
