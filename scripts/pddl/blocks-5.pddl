;; Five blocks: c on a, a on the table; e on d on b, b on the table. The goal is one
;; tower: a on b on c on d on e.
(define (problem blocks-5) (:domain blocks)
  (:objects a b c d e - block)
  (:init (clear c) (on c a) (ontable a)
         (clear e) (on e d) (on d b) (ontable b)
         (handempty))
  (:goal (and (on a b) (on b c) (on c d) (on d e))))
