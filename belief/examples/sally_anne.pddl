; The classic false-belief test: Sally puts the marble in the basket and leaves; Anne moves it to the box.
; Initial facts give reality and each agent's beliefs at the moment Sally returns.
(define (problem sally-anne)
  (:domain tomi)
  (:agents Sally Anne)
  (:objects room - room  basket box - container  marble - item)
  (:init
    (in marble box)
    (inside basket room) (inside box room)
    "Sally BELIEVE marble IN basket"
    "Anne BELIEVE marble IN box"
    "Anne BELIEVE Sally BELIEVE marble IN basket"
    "Sally BELIEVE Anne BELIEVE marble IN basket"
    "Sally BELIEVE NOT marble IN box @ 0.9"
    "Anne BELIEVE Sally BELIEVE Anne BELIEVE marble IN basket")
  (:query
    "? marble IN ?c"
    "? Sally BELIEVE marble IN ?c"
    "? Anne BELIEVE Sally BELIEVE marble IN ?c"
    "? Anne BELIEVE marble IN basket"
    "? Sally BELIEVE Anne BELIEVE Sally BELIEVE marble IN ?c"))
