package kcomp

// RCUToyBroken lets the external tests break the toy RCU (rcuToyBroken).
var RCUToyBroken = &rcuToyBroken
