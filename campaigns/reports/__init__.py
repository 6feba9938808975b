"""What the product shows and prints: the scenario briefing, play sheets, the campaign and
battle reports as HTML pages with their charts, and the templates they are drawn from."""
