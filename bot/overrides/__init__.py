"""Overrides: slash commands, who may use them, sealed records in the App's own comments, the push
log and what a comment saw. May import review, render, github, lifecycle, config and ambient."""
