"""The query parameters of the pages (`bot.web.inputs`): a number in its range, a flag,
a variant, each given at most once; anything else the 400 page's error."""

from __future__ import annotations

import pytest
from aiohttp import web
from aiohttp.test_utils import make_mocked_request

from bot.web.inputs import query_flag, query_int, query_variant


def _request(query: str) -> web.Request:
    return make_mocked_request("GET", "/games/1" + query)


def test_a_number_in_its_range_or_its_default() -> None:
    assert query_int(_request(""), "ply", 0, 10, 10) == 10
    assert query_int(_request("?ply=0"), "ply", 0, 10, 10) == 0
    assert query_int(_request("?ply=10"), "ply", 0, 10, 10) == 10


@pytest.mark.parametrize("query", ["?ply=-1", "?ply=11", "?ply=1e3", "?ply=", "?ply=%00",
                                   "?ply=１", "?ply=" + "9" * 40, "?ply=1&ply=2", "?ply=+1"])
def test_a_number_out_of_its_range_or_not_digits_is_a_bad_request(query: str) -> None:
    with pytest.raises(web.HTTPBadRequest):
        query_int(_request(query), "ply", 0, 10, 0)


def test_a_flag_is_0_or_1() -> None:
    assert query_flag(_request("?flip=1"), "flip") is True
    assert query_flag(_request("?flip=0"), "flip") is False
    assert query_flag(_request(""), "flip") is False
    for bad in ("?flip=2", "?flip=yes", "?flip=1&flip=1"):
        with pytest.raises(web.HTTPBadRequest):
            query_flag(_request(bad), "flip")


def test_a_variant_by_its_key() -> None:
    variant = query_variant(_request("?variant=italian"))
    assert variant is not None and variant.key == "italian"
    assert query_variant(_request("")) is None
    for bad in ("?variant=chess", "?variant=Italian", "?variant=italian&variant=arab"):
        with pytest.raises(web.HTTPBadRequest):
            query_variant(_request(bad))
