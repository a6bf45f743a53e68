module github.com/sliderzero/sliderzero

go 1.26.8
