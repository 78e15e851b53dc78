// A deliberately plain second implementation of docs/rules.md for the tests: a
// 7x7 array of cells, walls stored per cell side, recursion for the moves and
// breadth-first search for the regions. It shares nothing with the bitboard
// engine except the cell numbering (row * 7 + col) used to read a Position.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/position.h"

namespace wallgo::reference {

inline constexpr int kSize = 7;
inline constexpr int kNoOne = -1;

// Directions in the order north, east, south, west (the notation's letters).
inline constexpr int kDirCol[4] = {0, 1, 0, -1};
inline constexpr int kDirRow[4] = {1, 0, -1, 0};
inline constexpr char kDirLetter[4] = {'n', 'e', 's', 'w'};

struct Board {
  int players = 2;
  bool fourstone = true;  // 2 players only: b2, f6 red; b6, f2 blue
  bool stay_mobile = false;
  int wall_limit = -1;  // -1: unlimited
  // stone[col][row]: the colour index on that cell, or kNoOne.
  std::array<std::array<int, kSize>, kSize> stone{};
  // north_wall[col][row]: who built the wall between (col,row) and
  // (col,row+1), or kNoOne; east_wall likewise towards (col+1,row).
  std::array<std::array<int, kSize>, kSize> north_wall{};
  std::array<std::array<int, kSize>, kSize> east_wall{};
  std::array<int, 4> breakers{};
  int placements_done = 0;
  int to_move = 0;
  bool operator==(const Board&) const = default;
};

struct Cell {
  int col = 0;
  int row = 0;
  bool operator==(const Cell&) const = default;
};

enum class Kind { kPlace, kBuild, kBreak, kPass };

struct Turn {
  Kind kind = Kind::kPass;
  Cell from;
  Cell to;
  int dir = 0;  // side of `to`
};

// The board a Position shows, read cell by cell from its parts.
Board FromPosition(const Position& pos);

// The placement order of docs/rules.md's setup phase, as colour indices.
std::vector<int> PlacementOrder(const Board& board);
bool InSetup(const Board& board);

// Every legal move of the side to move; empty when the game is over.
std::vector<Turn> LegalMoves(const Board& board);
bool HasTurn(const Board& board, int player);
bool GameOver(const Board& board);
Board Apply(const Board& board, const Turn& turn);

// The regions (cells connected through unwalled edges), each a list of
// cells, found by breadth-first search.
std::vector<std::vector<Cell>> RegionsOf(const Board& board);

std::string CellText(Cell cell);
std::string MoveText(const Turn& turn);

struct Outcome {
  std::array<int, 4> score{};
  std::array<int, 4> largest{};
  unsigned winners = 0;  // bit per colour index
};
Outcome Score(const Board& board);

uint64_t Perft(const Board& board, int depth);

}  // namespace wallgo::reference
