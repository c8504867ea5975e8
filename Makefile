# Placeholder until the foundation lands; see README.md.
.PHONY: build
build:
	go build -o bin/cudaperf ./cmd/cudaperf
