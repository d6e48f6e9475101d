import DedupeBench

// The library's strategies only; a team's executable passes its own (Guides/Extending.md).
DedupeBench.main(adding: [])
