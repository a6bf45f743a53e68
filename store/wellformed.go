package store

import (
	"encoding/binary"
	"fmt"
)

// wellFormed checks that data starts with one complete msgpack value
// whose every length fits in the bytes that follow it. The msgpack
// library sizes a slice or map by the length a value claims before it
// reads the elements, so five bytes that claim two billion elements would
// allocate gigabytes; this walk, linear in the input and allocation-free,
// refuses them first.
func wellFormed(data []byte) error {
	pos, pending := 0, 1
	for pending > 0 {
		if pos >= len(data) {
			return fmt.Errorf("malformed: truncated")
		}
		c := data[pos]
		pos++
		pending--
		// n is the count of bytes (skip) or of elements (items) that
		// follow the header.
		var skip, items, lenBytes int
		switch {
		case c <= 0x7f || c >= 0xe0 || c == 0xc0 || c == 0xc2 || c == 0xc3:
		case c >= 0x80 && c <= 0x8f:
			items = 2 * int(c&0x0f)
		case c >= 0x90 && c <= 0x9f:
			items = int(c & 0x0f)
		case c >= 0xa0 && c <= 0xbf:
			skip = int(c & 0x1f)
		case c == 0xc4 || c == 0xd9:
			lenBytes = 1
		case c == 0xc5 || c == 0xda:
			lenBytes = 2
		case c == 0xc6 || c == 0xdb:
			lenBytes = 4
		case c == 0xc7:
			lenBytes, skip = 1, 1
		case c == 0xc8:
			lenBytes, skip = 2, 1
		case c == 0xc9:
			lenBytes, skip = 4, 1
		case c == 0xca || c == 0xce || c == 0xd2:
			skip = 4
		case c == 0xcb || c == 0xcf || c == 0xd3:
			skip = 8
		case c == 0xcc || c == 0xd0:
			skip = 1
		case c == 0xcd || c == 0xd1:
			skip = 2
		case c >= 0xd4 && c <= 0xd8:
			skip = 1 + 1<<(c-0xd4)
		case c == 0xdc || c == 0xdd:
			n, err := readLen(data, &pos, 2<<(c-0xdc))
			if err != nil {
				return err
			}
			items = n
		case c == 0xde || c == 0xdf:
			n, err := readLen(data, &pos, 2<<(c-0xde))
			if err != nil {
				return err
			}
			items = 2 * n
		default: // 0xc1 is never used
			return fmt.Errorf("malformed: byte 0x%02x at offset %d", c, pos-1)
		}
		if lenBytes > 0 {
			n, err := readLen(data, &pos, lenBytes)
			if err != nil {
				return err
			}
			skip += n
		}
		if skip > len(data)-pos {
			return fmt.Errorf("malformed: a value at offset %d claims %d bytes, %d remain", pos, skip, len(data)-pos)
		}
		pos += skip
		// Every element takes at least one byte.
		if items > len(data)-pos-pending {
			return fmt.Errorf("malformed: a value at offset %d claims %d elements, %d bytes remain", pos, items, len(data)-pos)
		}
		pending += items
	}
	return nil
}

// readLen reads a big-endian length of size bytes at *pos.
func readLen(data []byte, pos *int, size int) (int, error) {
	if size > len(data)-*pos {
		return 0, fmt.Errorf("malformed: truncated")
	}
	b := data[*pos : *pos+size]
	*pos += size
	switch size {
	case 1:
		return int(b[0]), nil
	case 2:
		return int(binary.BigEndian.Uint16(b)), nil
	default:
		return int(binary.BigEndian.Uint32(b)), nil
	}
}
