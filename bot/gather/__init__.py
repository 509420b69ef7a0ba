"""Everything a review reads, fetched before it judges: changed files, both versions, schema sets,
users of shared files and the histories the lifecycle rules ask for. May import github, review
(the FileChange it fills), lifecycle, config and ambient."""
