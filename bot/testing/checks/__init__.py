"""The shared game checks: every test the project runs on each registered game, for a game package to run
on itself. A test module collects them all with

    from bot.testing.checks import *  # noqa: F403
    TESSERA_GAMES = ("my_game",)  # the ids to check; default: every registered game

Each test takes `game_id`, which the kit's plugin (bot/testing/plugin.py) runs once per chosen game; what a
game's `fixtures` module says of it (bot/testing/fixtures.py) tunes them.
"""

from __future__ import annotations

from bot.testing.checks.clicks import test_cells_identify_every_click_move
from bot.testing.checks.contract import (
    test_a_resignation_is_a_loss_or_a_logged_move_that_replays,
    test_every_seat_has_a_label,
    test_garbage_is_rejected_with_a_move_error,
    test_policies_name_legal_moves,
    test_random_games_respect_the_contract,
    test_replay_reports_a_move_stored_for_the_wrong_seat_or_an_illegal_move,
    test_replaying_the_log_with_forced_moves_reproduces_the_game,
    test_the_move_count_is_what_the_log_numbers,
    test_the_rules_have_the_whole_contract,
)
from bot.testing.checks.flows import (
    test_a_match_against_the_bot_at_level_1,
    test_a_match_through_play_accept_and_move_with_its_board_image,
    test_rules_shows_the_games_own_summary,
)
from bot.testing.checks.hostile import (
    test_new_and_resolve_options_answer_a_state_or_invalid_options,
    test_non_text_and_overlong_notations_are_invalid_moves,
    test_option_coerce_answers_a_valid_value_or_invalid_options,
    test_options_that_are_not_a_mapping_are_invalid_options,
    test_parse_answers_a_legal_move_or_a_move_error,
    test_parse_of_anything_but_text_is_an_invalid_move,
)
from bot.testing.checks.images import (
    test_a_board_redrawn_from_the_last_is_the_png_of_a_full_draw,
    test_a_game_with_pieces_draws_each_seats,
    test_boards_are_palette_pngs_of_the_width_asked_with_their_alt_text,
    test_click_cells_have_polygons_inside_the_board,
    test_the_games_colours_are_in_its_palette_and_drawn_exactly,
)
from bot.testing.checks.levels import (
    test_a_finished_match_is_analysed_and_a_hint_is_a_legal_move,
    test_each_level_searches_more_errs_less_and_shows_a_higher_rating,
    test_every_level_plays_a_legal_move,
)
from bot.testing.checks.snapshots import (
    test_every_uncorrupted_snapshot_loads_and_is_sound,
    test_load_of_a_corrupted_snapshot_refuses_it_or_gives_a_sound_state,
    test_load_of_random_json_is_refused_with_a_value_error,
)
from bot.testing.checks.tournament import test_a_swiss_of_the_game_runs_to_its_podium
from bot.testing.checks.web import test_the_web_board_plays_the_game_by_clicking_its_cells
from bot.testing.checks.words import (
    test_the_games_own_catalog_is_its_packages_words_with_the_english_placeholders,
    test_the_games_words_are_translated_in_every_language,
)

__all__ = [
    "test_a_board_redrawn_from_the_last_is_the_png_of_a_full_draw",
    "test_a_finished_match_is_analysed_and_a_hint_is_a_legal_move",
    "test_a_game_with_pieces_draws_each_seats",
    "test_a_match_against_the_bot_at_level_1",
    "test_a_match_through_play_accept_and_move_with_its_board_image",
    "test_a_resignation_is_a_loss_or_a_logged_move_that_replays",
    "test_a_swiss_of_the_game_runs_to_its_podium",
    "test_boards_are_palette_pngs_of_the_width_asked_with_their_alt_text",
    "test_cells_identify_every_click_move",
    "test_click_cells_have_polygons_inside_the_board",
    "test_each_level_searches_more_errs_less_and_shows_a_higher_rating",
    "test_every_level_plays_a_legal_move",
    "test_every_seat_has_a_label",
    "test_every_uncorrupted_snapshot_loads_and_is_sound",
    "test_garbage_is_rejected_with_a_move_error",
    "test_load_of_a_corrupted_snapshot_refuses_it_or_gives_a_sound_state",
    "test_load_of_random_json_is_refused_with_a_value_error",
    "test_new_and_resolve_options_answer_a_state_or_invalid_options",
    "test_non_text_and_overlong_notations_are_invalid_moves",
    "test_option_coerce_answers_a_valid_value_or_invalid_options",
    "test_options_that_are_not_a_mapping_are_invalid_options",
    "test_parse_answers_a_legal_move_or_a_move_error",
    "test_parse_of_anything_but_text_is_an_invalid_move",
    "test_policies_name_legal_moves",
    "test_random_games_respect_the_contract",
    "test_replay_reports_a_move_stored_for_the_wrong_seat_or_an_illegal_move",
    "test_replaying_the_log_with_forced_moves_reproduces_the_game",
    "test_rules_shows_the_games_own_summary",
    "test_the_games_colours_are_in_its_palette_and_drawn_exactly",
    "test_the_games_own_catalog_is_its_packages_words_with_the_english_placeholders",
    "test_the_games_words_are_translated_in_every_language",
    "test_the_move_count_is_what_the_log_numbers",
    "test_the_rules_have_the_whole_contract",
    "test_the_web_board_plays_the_game_by_clicking_its_cells",
]
