L0:
(W)     mov (16|M0)              r127.0<1>:ud  0x0:ud                             
(W)     and (1|M0)               r127.2<1>:ud  r0.0<0;1,0>:ud    0xFFFFFFC0:ud             
(W)     and (1|M0)               r127.0<1>:uw  r0.4<0;1,0>:uw    0xFF:uw             
(W)     add (1|M0)               r127.2<1>:ud  r127.2<0;1,0>:ud  0x60:uw              {I@2}
(W)     mad (1|M0)               r127.0<1>:ud  r127.2<0;0>:ud    r127.0<0;0>:uw    0xC0:uw              {I@1}
        send.ugm (1|M0)          r1       r127    null:0  0xFF000000            0x6228E500           {A@1,$0} // wr:1+0, rd:2; load.ugm.d32x32t.a32.ca.ca.bti[255]
(W)     add (1|M0)               r127.0<1>:ud  r127.0<0;1,0>:ud  0x80:uw              {$0.src}
        send.ugm (1|M0)          r3       r127    null:0  0xFF000000            0x6218D500           {A@1,$1} // wr:1+0, rd:1; load.ugm.d32x16t.a32.ca.ca.bti[255]
(W)     and (1|M0)               r127.0<1>:ud  r0.0<0;1,0>:ud    0xFFFFFFC0:ud              {$1.src}
        send.ugm (1|M0)          r4       r127    null:0  0xFF000000            0x6218D500           {I@1,$2} // wr:1+0, rd:1; load.ugm.d32x16t.a32.ca.ca.bti[255]
(W)     add (1|M0)               r127.0<1>:ud  r127.0<0;1,0>:ud  0x40:uw              {Compacted,$2.src}
        send.ugm (1|M0)          r5       r127    null:0  0xFF000000            0x6218C500           {I@1,$3} // wr:1+0, rd:1; load.ugm.d32x8t.a32.ca.ca.bti[255]
(W)     or (1|M0)                cr0.0<1>:ud   cr0.0<0;1,0>:ud   0x4C0:uw              {Compacted,A@1}
(W)     cmp (32|M0)   (gt)f0.0   null<1>:d     r4.14<0;1,0>:d    0:w               {A@1,$2.dst}
(W&f0.0) jmpi                                L248                                
L224:
        mov (32|M0)              r111.0<1>:ud  0x0:ud                              {Compacted}
(W)     jmpi                                 L1336                                
L248:
        mov (32|M0)              r113.0<1>:d   r1.0<1;1,0>:uw                   {$0.dst}
        mov (32|M0)              r118.0<1>:ud  0x0:ud                              {Compacted}
        mov (32|M0)              r120.0<1>:f   0.0:f                               {Compacted}
        mov (32|M0)              r122.0<1>:f   0.0:f                               {Compacted}
        mov (32|M0)              r124.0<1>:f   0.0:f                               {Compacted}
        shl (32|M0)              r115.0<1>:d   r113.0<1;1,0>:d   4:w               {Compacted,I@2}
(W)     mov (1|M0)               r117.0<1>:d   0:w                               {Compacted}
L312:
        sync.nop                             null                             {Compacted,I@1}
        sync.nop                             null                             {Compacted,$4.src}
        add (32|M0)              r2.0<1>:d     r117.0<0;1,0>:d   r113.0<1;1,0>:d  {Compacted,$1.dst}
        sync.nop                             null                             {Compacted,I@1}
        mov (16|M0)              r5.0<2>:ud    r2.0<1;1,0>:ud                   {Compacted,$3.dst}
        mov (16|M16)             r7.0<2>:ud    r3.0<1;1,0>:ud                   {Compacted}
        shl (16|M0)              r9.0<1>:q     r5.0<2;1,0>:ud    4:w               {Compacted,I@2}
        shl (16|M16)             r11.0<1>:q    r7.0<2;1,0>:ud    4:w               {Compacted,I@2}
        add (16|M0)              r13.0<1>:q    r9.0<1;1,0>:q     r4.5<0;1,0>:q    {Compacted,I@2}
        add (16|M16)             r15.0<1>:q    r11.0<1;1,0>:q    r4.5<0;1,0>:q    {Compacted,I@2}
        send.ugm (32|M0)         r17      r13     null:0  0x0            0x08803580           {A@1,$5} // wr:4+0, rd:8; load.ugm.d32x4.a64
        send.slm (32|M0)         null     r115    r17:8   0x0            0x04003504           {$5} // wr:2+8, rd:0; store.slm.d32x4.a32
(W)     send.slm (1|M0)          r25      r0      null:0  0x0            0x0210011F           {$6} // wr:1+0, rd:1; fence.slm.none.group
(W)     mov (1|M0)               r26.2<1>:f    0.0:f                               {Compacted}
(W)     mov (2|M0)               r26.10<1>:ub  r0.11<0;1,0>:ub                  {F@1}
(W)     mov (8|M0)               null<1>:ud    r25.0<1;1,0>:ud                  {Compacted,$6.dst}
(W)     send.gtwy (1|M0)         null     r26     null:0  0x0            0x02000004           {I@2,$7} // wr:1+0, rd:0; signal barrier
(W)     sync.bar                             0x0                                 {Compacted}
(W)     mov (1|M0)               r117.1<1>:d   0:w                               {Compacted}
L504:
(W)     add (1|M0)               r2.0<1>:d     r117.0<0;1,0>:d   r117.1<0;1,0>:d  {Compacted,I@1}
(W)     or (1|M0)                r3.0<1>:d     r117.1<0;1,0>:d   1:w               {Compacted}
(W)     or (1|M0)                r4.15<1>:d    r117.1<0;1,0>:d   2:w              
(W)     shl (1|M0)               r7.0<1>:d     r2.0<0;1,0>:d     6:w               {Compacted,I@3}
(W)     add (1|M0)               r8.0<1>:d     r117.0<0;1,0>:d   r3.0<0;1,0>:d    {Compacted,I@3}
(W)     or (1|M0)                r5.0<1>:d     r117.1<0;1,0>:d   3:w               {Compacted}
(W)     add (1|M0)               r9.0<1>:d     r117.0<0;1,0>:d   r4.15<0;1,0>:d   {I@4}
        add (32|M0)              r13.0<1>:d    r7.0<0;1,0>:d     r113.0<1;1,0>:d  {Compacted,I@4}
(W)     shl (1|M0)               r15.0<1>:d    r8.0<0;1,0>:d     6:w               {Compacted,I@4}
(W)     add (1|M0)               r10.0<1>:d    r117.0<0;1,0>:d   r5.0<0;1,0>:d    {Compacted,I@4}
(W)     shl (1|M0)               r16.0<1>:d    r9.0<0;1,0>:d     6:w               {Compacted,I@4}
        sync.nop                             null                             {Compacted,I@3}
        add (32|M0)              r21.0<1>:d    r15.0<0;1,0>:d    r113.0<1;1,0>:d  {Compacted,$5.src}
        mov (16|M0)              r19.0<2>:ud   r13.0<1;1,0>:ud                  {Compacted}
        mov (16|M16)             r23.0<2>:ud   r14.0<1;1,0>:ud                  {Compacted}
(W)     shl (1|M0)               r17.0<1>:d    r10.0<0;1,0>:d    6:w               {Compacted,I@5}
        sync.nop                             null                             {Compacted,I@5}
        add (32|M0)              r25.0<1>:d    r16.0<0;1,0>:d    r113.0<1;1,0>:d  {Compacted,$7.src}
        mov (16|M0)              r33.0<2>:ud   r21.0<1;1,0>:ud                  {Compacted,I@5}
        mov (16|M16)             r35.0<2>:ud   r22.0<1;1,0>:ud                  {Compacted}
        shl (16|M0)              r27.0<1>:q    r19.0<2;1,0>:ud   4:w               {Compacted,I@6}
        shl (16|M16)             r31.0<1>:q    r23.0<2;1,0>:ud   4:w               {Compacted,I@6}
        add (32|M0)              r29.0<1>:d    r17.0<0;1,0>:d    r113.0<1;1,0>:d  {Compacted,I@6}
        mov (16|M0)              r37.0<2>:ud   r25.0<1;1,0>:ud                  {Compacted,I@6}
        mov (16|M16)             r39.0<2>:ud   r26.0<1;1,0>:ud                  {Compacted}
        shl (16|M0)              r45.0<1>:q    r33.0<2;1,0>:ud   4:w               {Compacted,I@7}
        shl (16|M16)             r47.0<1>:q    r35.0<2;1,0>:ud   4:w               {Compacted,I@7}
        add (16|M0)              r41.0<1>:q    r27.0<1;1,0>:q    r4.4<0;1,0>:q    {Compacted,I@7}
        add (16|M16)             r43.0<1>:q    r31.0<1;1,0>:q    r4.4<0;1,0>:q    {Compacted,I@7}
        send.ugm (32|M0)         r61      r41     null:0  0x0            0x08803580           {A@1,$8} // wr:4+0, rd:8; load.ugm.d32x4.a64
        mov (16|M0)              r53.0<2>:ud   r29.0<1;1,0>:ud                  {Compacted}
        mov (16|M16)             r55.0<2>:ud   r30.0<1;1,0>:ud                  {Compacted}
        shl (16|M0)              r49.0<1>:q    r37.0<2;1,0>:ud   4:w               {Compacted}
        shl (16|M16)             r51.0<1>:q    r39.0<2;1,0>:ud   4:w               {Compacted}
        add (16|M0)              r57.0<1>:q    r45.0<1;1,0>:q    r4.4<0;1,0>:q    {Compacted}
        add (16|M16)             r59.0<1>:q    r47.0<1;1,0>:q    r4.4<0;1,0>:q    {Compacted}
        send.ugm (32|M0)         r77      r57     null:0  0x0            0x08803580           {A@1,$9} // wr:4+0, rd:8; load.ugm.d32x4.a64
        shl (16|M0)              r69.0<1>:q    r53.0<2;1,0>:ud   4:w               {Compacted}
        shl (16|M16)             r71.0<1>:q    r55.0<2;1,0>:ud   4:w               {Compacted}
        add (16|M0)              r73.0<1>:q    r49.0<1;1,0>:q    r4.4<0;1,0>:q    {Compacted}
        add (16|M16)             r75.0<1>:q    r51.0<1;1,0>:q    r4.4<0;1,0>:q    {Compacted}
        send.ugm (32|M0)         r89      r73     null:0  0x0            0x08803580           {A@1,$10} // wr:4+0, rd:8; load.ugm.d32x4.a64
        add (16|M0)              r85.0<1>:q    r69.0<1;1,0>:q    r4.4<0;1,0>:q    {Compacted}
        add (16|M16)             r87.0<1>:q    r71.0<1;1,0>:q    r4.4<0;1,0>:q    {Compacted}
        send.ugm (32|M0)         r97      r85     null:0  0x0            0x08803580           {A@1,$11} // wr:4+0, rd:8; load.ugm.d32x4.a64
(W)     shl (1|M0)               r6.0<1>:d     r117.1<0;1,0>:d   4:w               {Compacted}
(W)     shl (1|M0)               r12.0<1>:d    r4.15<0;1,0>:d    4:w              
(W)     send.slm (1|M0)          r11      r6      null:0  0x0            0x0210C500           {I@2,$12} // wr:1+0, rd:1; load.slm.d32x8t.a32
(W)     send.slm (1|M0)          r18      r12     null:0  0x0            0x0210C500           {I@1,$13} // wr:1+0, rd:1; load.slm.d32x8t.a32
(W)     cmp (32|M0)   (lt)f1.0   null<1>:ud    r5.0<0;1,0>:ud    0x3F:uw             
        sync.nop                             null                             {Compacted,$12.dst}
        mad (32|M0)              acc0.0<1>:f   r124.0<1;0>:f     r61.0<1;0>:f      r11.0<0>:f       {Compacted,$8.dst}
        mad (32|M0)              acc2.0<1>:f   r122.0<1;0>:f     r63.0<1;0>:f      r11.1<0>:f       {Compacted}
        mad (32|M0)              r109.0<1>:f   r120.0<1;0>:f     r65.0<1;0>:f      r11.2<0>:f       {Compacted}
        mad (32|M0)              r2.0<1>:f     r118.0<1;0>:f     r67.0<1;0>:f      r11.3<0>:f       {Compacted}
        mad (32|M0)              acc0.0<1>:f   acc0.0<1;0>:f     r77.0<1;0>:f      r11.4<0>:f       {Compacted,$9.dst}
        mad (32|M0)              acc2.0<1>:f   acc2.0<1;0>:f     r79.0<1;0>:f      r11.5<0>:f       {Compacted}
        mad (32|M0)              r9.0<1>:f     r109.0<1;0>:f     r81.0<1;0>:f      r11.6<0>:f       {Compacted,F@4}
        sync.nop                             null                             {Compacted,F@4}
        mad (32|M0)              r12.0<1>:f    r2.0<1;0>:f       r83.0<1;0>:f      r11.7<0>:f       {Compacted,$13.src}
        sync.nop                             null                             {Compacted,$13.dst}
        mad (32|M0)              acc0.0<1>:f   acc0.0<1;0>:f     r89.0<1;0>:f      r18.0<0>:f       {Compacted,$10.dst}
        mad (32|M0)              acc2.0<1>:f   acc2.0<1;0>:f     r91.0<1;0>:f      r18.1<0>:f       {Compacted}
        mad (32|M0)              r19.0<1>:f    r9.0<1;0>:f       r93.0<1;0>:f      r18.2<0>:f       {Compacted,F@4}
        mad (32|M0)              r21.0<1>:f    r12.0<1;0>:f      r95.0<1;0>:f      r18.3<0>:f       {Compacted,F@4}
        mad (32|M0)              r124.0<1>:f   acc0.0<1;0>:f     r97.0<1;0>:f      r18.4<0>:f       {Compacted,$11.dst}
        mad (32|M0)              r122.0<1>:f   acc2.0<1;0>:f     r99.0<1;0>:f      r18.5<0>:f       {Compacted}
        mad (32|M0)              r120.0<1>:f   r19.0<1;0>:f      r101.0<1;0>:f     r18.6<0>:f       {Compacted,F@4}
        mad (32|M0)              r118.0<1>:f   r21.0<1;0>:f      r103.0<1;0>:f     r18.7<0>:f       {Compacted,F@4}
(W&~f1.0) jmpi                               L1184                                
L1152:
(W)     add (1|M0)               r117.1<1>:d   r117.1<0;1,0>:d   4:w              
(W)     jmpi                                 L504                                
L1184:
(W)     send.slm (1|M0)          r2       r0      null:0  0x0            0x0210011F           {$14} // wr:1+0, rd:1; fence.slm.none.group
(W)     mov (1|M0)               r3.2<1>:f     0.0:f                               {Compacted}
(W)     mov (2|M0)               r3.10<1>:ub   r0.11<0;1,0>:ub                  {F@1}
(W)     mov (8|M0)               null<1>:ud    r2.0<1;1,0>:ud                   {Compacted,$14.dst}
(W)     send.gtwy (1|M0)         null     r3      null:0  0x0            0x02000004           {I@2,$4} // wr:1+0, rd:0; signal barrier
(W)     sync.bar                             0x0                                 {Compacted}
(W)     add (1|M0)               r117.0<1>:d   r117.0<0;1,0>:d   64:w               {Compacted}
(W)     cmp (32|M0)   (lt)f2.0   null<1>:d     r117.0<0;1,0>:d   r4.14<0;1,0>:d   {I@1}
(W&f2.0) jmpi                                L312                                
L1296:
        add (32|M0)              acc0.0<1>:f   r124.0<1;1,0>:f   r122.0<1;1,0>:f  {Compacted}
        add (32|M0)              acc0.0<1>:f   acc0.0<1;1,0>:f   r120.0<1;1,0>:f 
        add (32|M0)              r111.0<1>:f   acc0.0<1;1,0>:f   r118.0<1;1,0>:f 
L1336:
(W)     shl (1|M0)               r2.0<1>:d     r0.1<0;1,0>:d     6:w               {Compacted,$0.dst}
(W)     mov (16|M0)              r127.0<1>:f   r0.0<1;1,0>:f                    {Compacted,$3.src}
        sync.nop                             null                             {Compacted,I@1}
        add3 (32|M0)             r5.0<1>:d     r2.0<0;0>:d       r1.0<1;0>:uw      r4.0<0>:d        {$3.dst}
        mov (16|M0)              r7.0<2>:ud    r5.0<1;1,0>:ud                   {Compacted,I@1}
        mov (16|M16)             r11.0<2>:ud   r6.0<1;1,0>:ud                   {Compacted}
        shl (16|M0)              r9.0<1>:q     r7.0<2;1,0>:ud    2:w               {Compacted,I@2}
        shl (16|M16)             r13.0<1>:q    r11.0<2;1,0>:ud   2:w               {Compacted,I@2}
        add (16|M0)              r15.0<1>:q    r9.0<1;1,0>:q     r4.6<0;1,0>:q    {Compacted,I@2}
        add (16|M16)             r17.0<1>:q    r13.0<1;1,0>:q    r4.6<0;1,0>:q    {Compacted,I@2}
        send.ugm (32|M0)         null     r15     r111:2  0x0            0x08000584           {A@1,$15} // wr:4+2, rd:0; store.ugm.d32.a64
(W)     send.gtwy (8|M0)         null     r127    null:0  0x0            0x02000010           {EOT,F@1} // wr:1+0, rd:0; end of thread
L1456:
