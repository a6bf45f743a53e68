# Tallies an `accuracy --misses` file by player: for each miss, how far
# the value it gave away lay from the end of the game under perfect play
# (a won position: the plies of its shortest win; a drawn one: the plies
# of the longest resistance after the move played, which lost).
# Usage: awk -F'\t' -f tally.awk misses.tsv
{
  d = ($4 != 0) ? $5 : $8
  key = $1 "\t" $2
  n[key]++
  if (d <= 10) near[key]++
  else if (d <= 20) mid[key]++
  else far[key]++
  if (!(key in lo) || d < lo[key]) lo[key] = d
  all[key] = all[key] " " d
}
END {
  print "player\tset\tmisses\twithin 10 plies\t11-20\tover 20\tnearest"
  for (k in n) printf "%s\t%d\t%d\t%d\t%d\t%d\n", k, n[k], near[k], mid[k], far[k], lo[k]
}
