"""The only code that talks to GitHub: the REST client (split by what it serves), GraphQL
queries, tokens, backoff, blobs and who made a pull request's commits and pushed its heads
(pushers.py: the push log's chain, pure, beside contributions.py, its only user).
May import render (clipping), lifecycle (history stamps), config and ambient."""
