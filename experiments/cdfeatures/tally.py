import json, sys, statistics as st
for f in sys.argv[1:]:
    seats = {}
    for line in open(f):
        r = json.loads(line)
        a = 0 if not r['players'][0].startswith('alphabeta') else 1
        seats.setdefault('D' if r['winner'] == a else 'C', []).append(len(r['moves']))
    print(f, {s: (len(v), round(st.mean(v), 1), round(1.96 * st.stdev(v) / len(v) ** .5, 1)) for s, v in seats.items()})
