"""Two real console processes on 127.0.0.1 play whole Pyramids matches at a table (issue 12).

Everything goes through the scripted mode: ``--table open`` on one side,
``--table join:127.0.0.1:PORT`` on the other, each with its own data
directory. No assertion is about time: the waits of the scripts are bounded,
and what is checked is the state each console ends in.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from net_consoles import Console, good_moves, guest, host, stop_all, taps
from pyramid.actions import Action, Kind
from pyramid.engine.duel.board import DuelBoard
from pyramid.saved.stats import NETWORK_GAME

#: The good player clears the first round of this match, then loses the second (a short match).
MATCH = 16


@pytest.fixture
def consoles() -> Iterator[list[Console]]:
    started: list[Console] = []
    yield started
    stop_all(*started)


def final_board(match: int, moves: list) -> DuelBoard:
    board = DuelBoard.for_match(match)
    for move in moves:
        board.push(move)
    return board


def test_a_whole_match_each_side_records_the_others_score(tmp_path: Path, consoles: list[Console]) -> None:
    ann_moves = good_moves(MATCH, "good")
    bob_moves = good_moves(MATCH, "casual")
    ann = host(tmp_path, "Ann", MATCH, f"wait:joined {taps(MATCH, ann_moves)} wait:done ok")
    consoles.append(ann)
    bob = guest(tmp_path, "Bob", ann.port(), f"wait:joined {taps(MATCH, bob_moves)} wait:done ok")
    consoles.append(bob)
    ann_final, bob_final = ann.finish(), bob.finish()
    ann_first = ann.states()[0]["game"]
    bob_first = next(state["game"] for state in bob.states() if state["game"] is not None)
    # The same five deals on both sides: the host's match number.
    assert ann_first["match"] == bob_first["match"] == MATCH
    assert ann_first["deal"] == bob_first["deal"] == DuelBoard.for_match(MATCH).to_json()["deal"]
    assert ann_first["table"]["players"] == ["Ann"] and ann_first["table"]["state"] == "waiting"
    mine, theirs = ann_final["game"], bob_final["game"]
    assert mine["moves"] == [str(move) for move in ann_moves]
    assert theirs["moves"] == [str(move) for move in bob_moves]
    # Each side's record of the other is the other's own game, replayed, never claimed. (The one that
    # ends its script first leaves the table, so the other may already see it gone.)
    for seen, own, name in ((mine["opponent"], theirs, "Bob"), (theirs["opponent"], mine, "Ann")):
        assert (seen["name"], seen["round"], seen["score"], seen["moves"]) == (name, own["round"], own["score"],
                                                                               len(own["moves"]))
        assert seen["status"] in ("finished", "left")
    assert mine["table"]["players"] == theirs["table"]["players"] == ["Ann", "Bob"]
    assert {mine["table"]["state"], theirs["table"]["state"]} <= {"finished", "closed"}
    # The duel at the end names both players with both scores.
    ann_total = sum(final_board(MATCH, ann_moves).round_scores())
    bob_total = sum(final_board(MATCH, bob_moves).round_scores())
    for final in (mine, theirs):
        duel = final["duel"]
        assert [c["name"] for c in duel["contenders"]] == ["Ann", "Bob"]
        assert [sum(r["round_scores"]) for r in duel["results"]] == [ann_total, bob_total]
    assert ann_final["screen"] == bob_final["screen"] == "duel_result"
    # Statistics: network matches per opponent name.
    ann_stats, bob_stats = ann.stats()[(NETWORK_GAME, "Bob")], bob.stats()[(NETWORK_GAME, "Ann")]
    assert ann_stats.played == bob_stats.played == 1
    assert ann_stats.won + bob_stats.won == (0 if ann_total == bob_total else 1)
    assert ann_stats.won == (ann_total > bob_total)


def test_watching_the_opponent_then_a_rematch(tmp_path: Path, consoles: list[Console]) -> None:
    moves = good_moves(MATCH)
    watch = " ".join(["right"] * len(moves))
    # After the match: results, "Watch Bob's game" (step through all of it), back, "New round".
    after = f"wait:done ok ok {watch} back down ok wait wait"
    ann = host(tmp_path, "Ann", MATCH, f"wait:joined {taps(MATCH, moves)} {after}")
    consoles.append(ann)
    bob = guest(tmp_path, "Bob", ann.port(), f"wait:joined {taps(MATCH, moves)} {after}")
    consoles.append(bob)
    ann_final, bob_final = ann.finish(), bob.finish()
    for console in (ann, bob):
        screens = [state["screen"] for state in console.states()]
        assert "watch" in screens
        watching = [state for state in console.states() if state["screen"] == "watch"]
        assert len(watching) == len(moves) + 1
        assert watching[0]["menu"] is None
    # Both agreed on a new round: the same new match on both sides, fresh boards, the same table.
    new_ann, new_bob = ann_final["game"], bob_final["game"]
    assert new_ann["match"] == new_bob["match"] != MATCH
    assert new_ann["moves"] == new_bob["moves"] == []
    # The first to end its script is on the new round's board; the other may have heard it leave: the
    # match is then won (issue 47, a match counts from the first look) and its panel says so.
    assert "duel" in (ann_final["screen"], bob_final["screen"])
    assert {ann_final["screen"], bob_final["screen"]} <= {"duel", "duel_over"}
    assert new_ann["opponent"]["moves"] == new_bob["opponent"]["moves"] == 0
    assert new_ann["table"]["players"] == new_bob["table"]["players"] == ["Ann", "Bob"]
    # The first to end its script saw the other still seated; the other may have seen it leave.
    states = {new_ann["table"]["state"], new_bob["table"]["state"]}
    assert "playing" in states and states <= {"playing", "closed"}
    # The match, and the new round both agreed to, left when the scripts end: it counts from the first
    # look (issue 47), for the one who left first a loss, for the other a loss too if it left before hearing.
    assert ann.stats()[(NETWORK_GAME, "Bob")].played == bob.stats()[(NETWORK_GAME, "Ann")].played == 2


def test_a_player_who_leaves_is_reported_and_the_match_recorded(tmp_path: Path, consoles: list[Console]) -> None:
    moves = good_moves(MATCH)
    ann = host(tmp_path, "Ann", MATCH, f"wait:joined {taps(MATCH, moves, stop=3)} wait:done ok")
    consoles.append(ann)
    # Bob's "wait" lets Ann's first message arrive: his moves go out once the table has answered.
    bob = guest(tmp_path, "Bob", ann.port(), f"wait:joined {taps(MATCH, moves, stop=5)} wait")
    consoles.append(bob)
    bob_final = bob.finish()
    ann_final = ann.finish()
    assert bob_final["game"]["moves"] == [str(move) for move in moves[:5]]
    opponent = ann_final["game"]["opponent"]
    assert opponent["status"] == "left" and opponent["moves"] == 5 and not opponent["connected"]
    assert ann_final["game"]["table"]["state"] == "closed"
    # Ann's game stopped where Bob left it (issue 47): ✓ on its panel shows the results, the match won.
    assert ann_final["game"]["moves"] == [str(move) for move in moves[:3]]
    assert ann_final["screen"] == "duel_result", ann_final
    # The match counts once on each side: a forfeit for the one who stayed, a loss for the one who left.
    ann_stats, bob_stats = ann.stats()[(NETWORK_GAME, "Bob")], bob.stats()[(NETWORK_GAME, "Ann")]
    assert (ann_stats.played, ann_stats.won) == (1, 1)
    assert (bob_stats.played, bob_stats.won) == (1, 0)


def test_the_one_who_stayed_is_told_the_match_is_won_and_sees_the_results(tmp_path: Path) -> None:
    """Issue 47, item 4: the opponent left mid-round; the host saw one status line and stayed on the
    board. Now its game stops there with a panel saying the match is won, and leads to the results."""
    from test_net_match_states import MatchAtARealHost

    host = MatchAtARealHost()
    try:
        host.host_plays(5)
        host.peer_plays_honestly(5)
        host.say({"t": "leave", "reason": "left"})
        screen = host.host_screen()
        assert screen is not None and screen is host.session.screen and not screen.board.is_over()
        panel = host.session.view().panel
        assert panel is not None and panel.title == "Mallory left the table: you win the match"
        assert panel.items == ("See the results",)
        counted = host.session.store.stats(NETWORK_GAME, "Mallory")
        assert (counted.played, counted.won) == (1, 1)
        host.session.handle(Action(Kind.OK))
        results = host.session.view().panel
        assert results is not None and results.title == "Mallory left the table: you win the match"
        assert results.items[-1] == "Leave the table"
    finally:
        host.close()


def test_news_of_a_moment_gives_way_to_the_opponents_progress() -> None:
    """Issue 47, item 8: "Mallory is back" stayed under the table while Mallory played a whole round;
    the opponent's next move brings its progress back."""
    from pyramid.net import events as ev
    from test_net_match_states import MatchAtARealHost

    host = MatchAtARealHost()
    try:
        host.host_plays(3)
        host.session.post_event(ev.PeerConnection(True))
        assert host.session.view().table.status_line == "Mallory is back"  # type: ignore[union-attr]
        host.peer_plays_honestly(1)
        line = host.session.view().table.status_line  # type: ignore[union-attr]
        assert line != "Mallory is back" and line.startswith("Mallory"), line
    finally:
        host.close()
