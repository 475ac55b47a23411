"""The networkx stand-in of the Dutch engine's matchings (tournaments/dutch_matching.py):
what `import networkx` gives while it is in place and after, and its answers against
networkx's own on graphs built as the engine builds them."""

from __future__ import annotations

import random
import sys

import networkx  # type: ignore[import-untyped]  # caissify_pairings requires it
import pytest

from tournaments.dutch_matching import Graph, networkx_replaced


def test_networkx_is_replaced_only_while_the_stand_in_is_open() -> None:
    with networkx_replaced():
        import networkx as inside
        assert inside is not networkx
        assert inside.Graph is Graph
    import networkx as after
    assert after is networkx
    assert sys.modules["networkx"] is networkx


def test_networkx_comes_back_after_an_error() -> None:
    with pytest.raises(RuntimeError), networkx_replaced():
        raise RuntimeError("the engine failed")
    assert sys.modules["networkx"] is networkx


def test_the_stand_in_matches_as_networkx_matches_call_after_call() -> None:
    """Graphs built as the engine builds them (every vertex added, then the edges of
    positive weight), the weights changed around a few vertices between calls: the
    stand-in's matching has networkx's weight and size each time."""
    rng = random.Random(3)
    vertices = 24
    weights = {(i, j): rng.getrandbits(200) + 1 for i in range(vertices)
               for j in range(i + 1, vertices) if rng.random() < 0.6}
    with networkx_replaced():
        import networkx as stand_in
        for _ in range(20):
            graph, reference = stand_in.Graph(), networkx.Graph()
            for v in range(vertices):
                graph.add_node(v)
                reference.add_node(v)
            for (i, j), weight in weights.items():
                graph.add_edge(i, j, weight=weight)
                reference.add_edge(i, j, weight=weight)
            got = stand_in.max_weight_matching(graph, maxcardinality=True)
            expected = networkx.max_weight_matching(reference, maxcardinality=True)
            assert len(got) == len(expected)
            assert sum(weights[pair] for pair in got) == sum(
                weights[(min(i, j), max(i, j))] for i, j in expected)
            for v in rng.sample(range(vertices), 2):
                for x in range(vertices):
                    if x != v and rng.random() < 0.5:
                        weights[(min(v, x), max(v, x))] = rng.getrandbits(200) + 1
