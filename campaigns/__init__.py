"""Use-cases that read player files and change companies: designs, scenarios, musters,
battles and campaigns."""
