# ASOF NEAREST against the peers' nearest AS-OF joins, by symbol, on 20,000 generated trades x
# quotes whose quote times are distinct per symbol (bench/temporal/peers_nearest.sh): pandas'
# merge_asof(direction='nearest') prefers the earlier quote at equal distances, which is
# Relix's `>=` (0 rows may differ), Polars' joinAsof(strategy: 'nearest') the later, which is
# Relix's `<=` (0 rows may differ); the other pairings differ exactly where a trade lies midway.
sh bench/install-peers.sh > /dev/null 2>&1 || { echo "cannot install the peers"; exit 1; }
RELIX="$RELIX" bash bench/temporal/peers_nearest.sh 20000 2> /dev/null | grep "rows differ"
