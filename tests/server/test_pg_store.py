"""The PostgreSQL store against a real server: the SQLite store's guarantees, and a lost database.

Skipped without PostgreSQL or psycopg, except in CI (see ``postgres_support``).
"""

from __future__ import annotations

import pytest
from postgres_support import PostgresCluster, postgres_cluster, postgres_url  # noqa: F401

from pastiche_core.cli import main
from pastiche_core.server import GameSession, Service, make_service
from pastiche_core.server.api_errors import ApiError
from pastiche_core.server.pg_store import PostgresStore
from pastiche_core.server.store import StaleGameError, StoreError

SEATS = ["human", "human", "human"]


def _session(name: str, client: str = "") -> GameSession:
    session = GameSession.start(name, players=3, seed=7, seats=("human",) * 3, client=client)
    session.issue_tokens()
    return session


def test_games_are_kept_and_replayed(postgres_url: str) -> None:  # noqa: F811
    store = PostgresStore(postgres_url)
    session = _session("g")
    store.add(session)
    session.game.apply("keep MYT1 HOR7 HOR8")
    store.save(session, 0)
    assert store.get("g") is session  # cached at the row's version
    store.close()
    again = PostgresStore(postgres_url)
    restored = again.get("g")
    assert restored is not None
    assert [str(move) for move in restored.game.history] == ["keep MYT1 HOR7 HOR8"]
    assert (restored.version, restored.tokens) == (1, session.tokens)
    assert again.get("unknown") is None
    assert len(again) == 1
    again.close()


def test_two_stores_on_one_database_never_overwrite(postgres_url: str) -> None:  # noqa: F811
    first, second = PostgresStore(postgres_url), PostgresStore(postgres_url)
    first.add(_session("g"))
    mine, theirs = first.get("g"), second.get("g")
    assert mine is not None
    assert theirs is not None
    theirs.game.apply("keep MYT1 HOR7 HOR8")
    second.save(theirs, 0)
    mine.game.apply("keep MYT1 HOR7 HOR8")
    mine.game.apply(next(iter(mine.game.legal_moves)))
    with pytest.raises(StaleGameError):
        first.save(mine, 0)
    fresh = first.get("g")
    assert fresh is not None
    assert fresh is not mine  # read again, at the row's version
    assert fresh.version == 1
    first.close()
    second.close()


def test_a_lost_database_answers_503_and_the_first_request_after_succeeds(
    postgres_cluster: PostgresCluster,  # noqa: F811
    postgres_url: str,  # noqa: F811
) -> None:
    service = make_service(store_path=postgres_url)
    created = service.create_game({"players": 3, "seed": 12, "seats": SEATS})
    game, tokens = created["game"], created["tokens"]
    seat = str(service.game_state(game, tokens["0"])["to_move"])
    state = service.game_state(game, tokens[seat])
    postgres_cluster.stop()
    try:
        for call, args in (
            (service.move, (game, tokens[seat], {"move": state["legal"][0]})),
            (service.game_state, (game, tokens[seat])),
            (service.create_game, ({"players": 3}, "10.0.0.1")),
        ):
            with pytest.raises(ApiError) as refused:
                call(*args)
            assert refused.value.status == 503
            assert refused.value.retry_after == 5
    finally:
        postgres_cluster.start()
    assert service.game_state(game, tokens[seat]) == state  # the first request after: 200
    after = service.move(game, tokens[seat], {"move": state["legal"][0]})
    assert after["view"] != state["view"]
    session = service.store.get(game)
    assert session is not None
    assert [str(move) for move in session.game.history] == [state["legal"][0]]  # once, not twice
    service.close()


def test_serve_refuses_an_unreachable_database_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    url = "postgresql://pastiche:secret@127.0.0.1:1/games"
    assert main(["serve", "--stdio", "--store", url]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "127.0.0.1:1" in err
    assert "secret" not in err
    with pytest.raises(StoreError):
        PostgresStore("postgres://127.0.0.1:1/games")


def test_a_full_database_refuses_new_games(postgres_url: str) -> None:  # noqa: F811
    service = Service(store=PostgresStore(postgres_url, max_games=2))
    for client in ("10.0.0.1", "10.0.0.2"):
        service.create_game({"players": 3}, client=client)
    with pytest.raises(ApiError) as refused:
        service.create_game({"players": 3}, client="10.0.0.3")
    assert refused.value.status == 503
    assert service.store.live_games("10.0.0.1") == 1
    service.close()
