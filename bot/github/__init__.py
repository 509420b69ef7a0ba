"""The only code that talks to GitHub: the REST client (split by what it serves), GraphQL
queries, tokens, backoff, blobs and who made a pull request's commits.
May import render (clipping), lifecycle (history stamps), config and ambient."""
