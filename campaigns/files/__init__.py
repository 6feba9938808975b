"""Reading and writing the product's files: the one way a player's file is read, the
scenario file model and the built-in scenarios, custom designs, dice files, the company
document, and the JSON the product stored itself. Nothing here changes a company."""
