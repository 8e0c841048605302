//! Stateright's breadth-first checker over the whole 8-puzzle space from `867254301`, the same
//! start and moves as `bench/programs/search_eight.ds explore`. Prints what that program prints:
//! the states (181,440) and the transitions generated (483,840), so that both are checked to
//! explore the same space. One thread, as the ds search.

use stateright::{Checker, Model, Property};

/// The blank's moves, in the order `search_eight.ds` tries them.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
enum Move {
    Up,
    Down,
    Left,
    Right,
}

/// A board as nine digits, row by row, 0 for the blank.
type Board = [u8; 9];

struct Eight {
    start: Board,
}

impl Model for Eight {
    type State = Board;
    type Action = Move;

    fn init_states(&self) -> Vec<Board> {
        vec![self.start]
    }

    fn actions(&self, board: &Board, actions: &mut Vec<Move>) {
        let blank = blank(board);
        let (row, col) = (blank / 3, blank % 3);
        if row > 0 {
            actions.push(Move::Up);
        }
        if row < 2 {
            actions.push(Move::Down);
        }
        if col > 0 {
            actions.push(Move::Left);
        }
        if col < 2 {
            actions.push(Move::Right);
        }
    }

    fn next_state(&self, board: &Board, action: Move) -> Option<Board> {
        let blank = blank(board);
        let other = match action {
            Move::Up => blank - 3,
            Move::Down => blank + 3,
            Move::Left => blank - 1,
            Move::Right => blank + 1,
        };
        let mut next = *board;
        next.swap(blank, other);
        Some(next)
    }

    /// A board of the other parity, never reached: without a property still open, the
    /// checker would stop at once, so this one keeps it going over the whole space (as
    /// `search_eight.ds bfs` looks for the same board).
    fn properties(&self) -> Vec<Property<Self>> {
        vec![Property::sometimes("two tiles swapped", |_, board: &Board| *board == [1, 2, 3, 4, 5, 6, 8, 7, 0])]
    }
}

fn blank(board: &Board) -> usize {
    board.iter().position(|&d| d == 0).expect("a board has a blank")
}

fn main() {
    let mut start = [0u8; 9];
    for (cell, digit) in start.iter_mut().zip("867254301".bytes()) {
        *cell = digit - b'0';
    }
    let checker = Eight { start }.checker().spawn_bfs().join();
    // state_count: every state generated, the start included; the ds program counts the
    // transitions, which are one fewer (the start is not reached by one)
    println!("{} {}", checker.unique_state_count(), checker.state_count() - 1);
}
