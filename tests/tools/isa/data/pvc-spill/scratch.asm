L0:
(W)     send.dc0 (16|M0)         null     r0      r6:4    0x0            0x020F3000           {$3} // wr:1h+4, rd:0; hword scratch block write x8
(W)     send.dc0 (8|M0)          null     r0      r1:1    0x0            0x020F1008           {I@2,$4} // wr:1h+1, rd:0; hword scratch block write x2
L472:
(W)     send.dc0 (8|M0)          null     r0      r1:1    0x0            0x020F100A           {I@2,$5} // wr:1h+1, rd:0; hword scratch block write x2
L568:
(W)     send.dc0 (16|M0)         r2       r0      null:0  0x0            0x021C100A           {$6} // wr:1h+0, rd:1; hword scratch block read x2
(W)     send.dc0 (8|M0)          null     r0      r2:1    0x0            0x020F100A           {F@1,$7} // wr:1h+1, rd:0; hword scratch block write x2
L848:
(W)     send.dc0 (16|M0)         null     r0      r8:2    0x0            0x020F200C           {I@1,$8} // wr:1h+2, rd:0; hword scratch block write x4
(W)     send.dc0 (16|M0)         null     r0      r6:2    0x0            0x020F2010           {I@1,$9} // wr:1h+2, rd:0; hword scratch block write x4
(W)     send.dc0 (16|M0)         r12      r0      null:0  0x0            0x024C3008           {$10} // wr:1h+0, rd:4; hword scratch block read x8
(W)     send.dc0 (16|M0)         r6       r0      null:0  0x0            0x024C300C           {I@1,$11} // wr:1h+0, rd:4; hword scratch block read x8
(W)     send.dc0 (16|M0)         null     r0      r8:2    0x0            0x020F2018           {I@1,$12} // wr:1h+2, rd:0; hword scratch block write x4
(W)     send.dc0 (16|M0)         null     r0      r6:2    0x0            0x020F2014           {$13} // wr:1h+2, rd:0; hword scratch block write x4
(W)     send.dc0 (16|M0)         r1       r0      null:0  0x0            0x022C2018           {$14} // wr:1h+0, rd:2; hword scratch block read x4
(W)     send.dc0 (16|M0)         null     r0      r6:2    0x0            0x020F201C           {I@1,$15} // wr:1h+2, rd:0; hword scratch block write x4
(W)     send.dc0 (16|M0)         r6       r0      null:0  0x0            0x022C201C           {$2} // wr:1h+0, rd:2; hword scratch block read x4
L1800:
(W)     send.dc0 (16|M0)         r6       r0      null:0  0x0            0x024C3020           {$8} // wr:1h+0, rd:4; hword scratch block read x8
(W)     send.dc0 (16|M0)         null     r0      r6:4    0x0            0x020F3020           {F@2,$9} // wr:1h+4, rd:0; hword scratch block write x8
(W)     send.dc0 (16|M0)         r6       r0      null:0  0x0            0x024C3028           {$10} // wr:1h+0, rd:4; hword scratch block read x8
(W)     send.dc0 (16|M0)         null     r0      r6:4    0x0            0x020F3028           {F@2,$11} // wr:1h+4, rd:0; hword scratch block write x8
(W)     send.dc0 (16|M0)         r6       r0      null:0  0x0            0x024C3030           {$12} // wr:1h+0, rd:4; hword scratch block read x8
(W)     send.dc0 (16|M0)         null     r0      r6:4    0x0            0x020F3030           {F@2,$13} // wr:1h+4, rd:0; hword scratch block write x8
(W)     send.dc0 (16|M0)         r6       r0      null:0  0x0            0x024C3038           {$14} // wr:1h+0, rd:4; hword scratch block read x8
(W)     send.dc0 (16|M0)         null     r0      r6:4    0x0            0x020F3038           {F@2,$15} // wr:1h+4, rd:0; hword scratch block write x8
(W)     send.dc0 (16|M0)         r6       r0      null:0  0x0            0x024C3040           {$0} // wr:1h+0, rd:4; hword scratch block read x8
(W)     send.dc0 (16|M0)         null     r0      r6:4    0x0            0x020F3040           {F@2,$2} // wr:1h+4, rd:0; hword scratch block write x8
(W)     send.dc0 (16|M0)         r6       r0      null:0  0x0            0x024C3048           {$3} // wr:1h+0, rd:4; hword scratch block read x8
(W)     send.dc0 (16|M0)         null     r0      r6:4    0x0            0x020F3048           {F@2,$4} // wr:1h+4, rd:0; hword scratch block write x8
(W)     send.dc0 (16|M0)         r6       r0      null:0  0x0            0x024C3050           {$6} // wr:1h+0, rd:4; hword scratch block read x8
(W)     send.dc0 (16|M0)         null     r0      r6:4    0x0            0x020F3050           {F@2,$8} // wr:1h+4, rd:0; hword scratch block write x8
(W)     send.dc0 (16|M0)         r6       r0      null:0  0x0            0x024C3058           {$5} // wr:1h+0, rd:4; hword scratch block read x8
(W)     send.dc0 (16|M0)         null     r0      r6:4    0x0            0x020F3058           {$1} // wr:1h+4, rd:0; hword scratch block write x8
(W)     send.dc0 (16|M0)         r6       r0      null:0  0x0            0x024C3060           {$7} // wr:1h+0, rd:4; hword scratch block read x8
(W)     send.dc0 (16|M0)         null     r0      r6:4    0x0            0x020F3060           {$9} // wr:1h+4, rd:0; hword scratch block write x8
(W)     send.dc0 (16|M0)         r6       r0      null:0  0x0            0x024C3068           {$10} // wr:1h+0, rd:4; hword scratch block read x8
(W)     send.dc0 (16|M0)         null     r0      r6:4    0x0            0x020F3068           {$11} // wr:1h+4, rd:0; hword scratch block write x8
(W)     send.dc0 (16|M0)         r6       r0      null:0  0x0            0x024C3070           {$12} // wr:1h+0, rd:4; hword scratch block read x8
