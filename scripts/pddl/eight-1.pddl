;; docs/problems.md, problem 2: start 2 8 3 / 1 6 4 / 7 0 5, goal 1 2 3 / 8 0 4 / 7 6 5 (0 is
;; the blank; columns c1 c2 c3 left to right, rows r1 r2 r3 top to bottom). Known: 5 moves.
(define (problem eight-1) (:domain eight)
  (:objects t1 t2 t3 t4 t5 t6 t7 t8 - tile c1 c2 c3 - col r1 r2 r3 - row)
  (:init (left-of c1 c2) (left-of c2 c3) (above r1 r2) (above r2 r3)
         (at t2 c1 r1) (at t8 c2 r1) (at t3 c3 r1)
         (at t1 c1 r2) (at t6 c2 r2) (at t4 c3 r2)
         (at t7 c1 r3) (blank c2 r3) (at t5 c3 r3))
  (:goal (and (at t1 c1 r1) (at t2 c2 r1) (at t3 c3 r1)
              (at t8 c1 r2) (at t4 c3 r2)
              (at t7 c1 r3) (at t6 c2 r3) (at t5 c3 r3))))
