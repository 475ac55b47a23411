"""Maximum-weight matching (tournaments/matching.py) compared with networkx's
`max_weight_matching`, an independent implementation: on random graphs with weights from
1 to 255 bits wide (the Dutch engine's are 180 to 255), with and without maximum
cardinality, solved from nothing and again after random changes (the way the Swiss
pairing calls it). Both answers must be matchings of the graph with the same total weight
(and, for maximum cardinality, the same number of edges); the matchings themselves may
differ when two have the same weight."""

from __future__ import annotations

import random

import networkx as nx  # type: ignore[import-untyped]  # caissify_pairings requires it
import pytest

from tournaments.matching import Edge, Matching, max_weight_matching

WIDTHS = (1, 3, 16, 64, 255)


def _reference(vertices: int, weights: dict[Edge, int], max_cardinality: bool
               ) -> set[Edge]:
    graph = nx.Graph()
    graph.add_nodes_from(range(vertices))
    for (i, j), weight in weights.items():
        graph.add_edge(i, j, weight=weight)
    return {(min(i, j), max(i, j))
            for i, j in nx.max_weight_matching(graph, maxcardinality=max_cardinality)}


def _random_graph(rng: random.Random, vertices: int, density: float, bits: int
                  ) -> dict[Edge, int]:
    return {(i, j): rng.randint(1, 2 ** bits) for i in range(vertices)
            for j in range(i + 1, vertices) if rng.random() < density}


def _assert_same_optimum(pairs: set[Edge], vertices: int, weights: dict[Edge, int],
                         max_cardinality: bool) -> None:
    ends = [v for pair in pairs for v in pair]
    assert len(ends) == len(set(ends)), "a vertex is matched twice"
    assert pairs <= weights.keys(), "a matched pair is not an edge"
    expected = _reference(vertices, weights, max_cardinality)
    assert sum(weights[pair] for pair in pairs) == sum(weights[pair] for pair in expected)
    if max_cardinality:
        assert len(pairs) == len(expected)


@pytest.mark.parametrize("max_cardinality", [False, True])
@pytest.mark.parametrize("seed", range(4))
def test_random_graphs_have_networkx_s_maximum_weight(seed: int,
                                                      max_cardinality: bool) -> None:
    rng = random.Random(seed)
    for _ in range(150):
        vertices = rng.randint(1, 16)
        weights = _random_graph(rng, vertices, rng.random(), rng.choice(WIDTHS))
        pairs = max_weight_matching([(i, j, w) for (i, j), w in weights.items()],
                                    max_cardinality=max_cardinality)
        _assert_same_optimum(pairs, vertices, weights, max_cardinality)


def _change(rng: random.Random, weights: dict[Edge, int], vertices: int, bits: int) -> None:
    """Changes the weights around a few vertices as the Dutch engine does: a pair fixed
    (its other edges removed, its own edge given weight 1), or a few vertices' edges
    removed, added, reweighted or nudged by one."""
    if rng.random() < 0.3:
        a, b = rng.sample(range(vertices), 2)
        for v in (a, b):
            for x in range(vertices):
                weights.pop((min(v, x), max(v, x)), None)
        weights[(min(a, b), max(a, b))] = 1
        return
    for v in rng.sample(range(vertices), rng.randint(1, 3)):
        for x in range(vertices):
            edge = (min(v, x), max(v, x))
            roll = rng.random()
            if x == v:
                continue
            if roll < 0.2:
                weights.pop(edge, None)
            elif roll < 0.5:
                weights[edge] = rng.randint(1, 2 ** bits)
            elif roll < 0.7 and edge in weights:
                weights[edge] = max(1, weights[edge] + rng.choice((-1, 1)))


@pytest.mark.parametrize("max_cardinality", [False, True])
@pytest.mark.parametrize("seed", range(4))
def test_solved_again_after_changes_it_keeps_networkx_s_maximum_weight(
        seed: int, max_cardinality: bool) -> None:
    rng = random.Random(100 + seed)
    for _ in range(12):
        vertices = rng.randint(8, 30)
        bits = rng.choice(WIDTHS)
        weights = _random_graph(rng, vertices, rng.uniform(0.2, 0.9), bits)
        matching = Matching(vertices, max_cardinality=max_cardinality)
        for _ in range(25):
            partner = matching.solve(weights)
            pairs = {(i, j) for i, j in enumerate(partner) if i < j}
            assert all(partner[j] == i for i, j in pairs)
            assert sum(1 for j in partner if j != -1) == 2 * len(pairs)
            _assert_same_optimum(pairs, vertices, weights, max_cardinality)
            _change(rng, weights, vertices, bits)


@pytest.mark.slow
def test_larger_graphs_with_wide_weights_have_networkx_s_maximum_weight() -> None:
    rng = random.Random(7)
    for vertices in (60, 101, 150):
        weights = _random_graph(rng, vertices, 0.5, 255)
        matching = Matching(vertices)
        for _ in range(6):
            partner = matching.solve(weights)
            pairs = {(i, j) for i, j in enumerate(partner) if i < j}
            _assert_same_optimum(pairs, vertices, weights, True)
            _change(rng, weights, vertices, 255)


def test_weights_wider_than_any_machine_integer_decide_the_matching() -> None:
    """Only the lowest bit of 300-bit weights tells the two perfect matchings of a
    4-cycle apart."""
    top = 1 << 300
    weights = {(0, 1): top + 1, (2, 3): top, (1, 2): top, (0, 3): top}
    assert max_weight_matching([(i, j, w) for (i, j), w in weights.items()],
                               max_cardinality=True) == {(0, 1), (2, 3)}


def test_maximum_cardinality_takes_more_edges_over_more_weight() -> None:
    path = [(0, 1, 1), (1, 2, 10), (2, 3, 1)]
    assert max_weight_matching(path) == {(1, 2)}
    assert max_weight_matching(path, max_cardinality=True) == {(0, 1), (2, 3)}


def test_bad_edges_are_refused() -> None:
    matching = Matching(3)
    with pytest.raises(ValueError, match="below 1"):
        matching.solve({(0, 1): 0})
    with pytest.raises(ValueError, match="i < j"):
        matching.solve({(1, 0): 5})
    with pytest.raises(ValueError, match="i < j"):
        matching.solve({(1, 3): 5})
    with pytest.raises(ValueError, match="negative"):
        Matching(-1)


def test_a_bad_change_is_refused_after_a_solution() -> None:
    matching = Matching(3)
    assert matching.solve({(0, 1): 5, (1, 2): 3}) == [1, 0, -1]
    with pytest.raises(ValueError, match="below 1"):
        matching.solve({(0, 1): 5, (1, 2): -3})
