"""Use-cases that change companies and fight battles: companies, musters, battles, plays,
campaigns and their odds. Files are read and written in ``campaigns.files``; what is shown
and printed is drawn in ``campaigns.reports``."""
