"""The game engines. `REGISTRY` is what the lobby offers; slugs are stored in the database, so they never change.

`BENCHMARK_GAMES` are served only when the server runs with TABULA_BENCHMARK=1; `ALL_GAMES` is what the
conformance suite checks.
"""

from games.alea_iacta_est import AleaIactaEst
from games.ave_cesar import AveCesar
from games.bench_cards import BenchCards
from games.cesar_cleopatre import CesarCleopatre
from games.core import Game

REGISTRY: dict[str, Game] = {
    "cesar_cleopatre": CesarCleopatre(),
    "ave_cesar": AveCesar(),
    "alea_iacta_est": AleaIactaEst(),
}

BENCHMARK_GAMES: dict[str, Game] = {
    "bench_cards": BenchCards(),
}

ALL_GAMES: dict[str, Game] = {**REGISTRY, **BENCHMARK_GAMES}
