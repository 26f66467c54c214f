L0:
(W)     mov (8|M0)               r87.0<1>:ud   r0.0<1;1,0>:ud                  
(W)     or (1|M0)                cr0.0<1>:ud   cr0.0<0;1,0>:ud   0x4C0:uw              {@1}
(W)     cmp (16|M0)   (gt)f0.0   null<1>:d     r8.6<0;1,0>:d     0:w               {@1}
(W)     cmp (16|M16)  (gt)f0.0   null<1>:d     r8.6<0;1,0>:d     0:w              
(W)     csel (4|M0)   (eq)f0.0   r0.0<1>:w     r0.0<4;1>:w       r0.0<4;1>:w       r0.0<1>:w       
(~f0.0) if (32|M0)                           L128                  L2032                
L96:
        mov (16|M0)              r93.0<1>:f    0.0:f                               {Compacted}
        mov (16|M16)             r95.0<1>:f    0.0:f                               {Compacted}
        else (32|M0)                         L2032                  L2032                
L128:
        mov (16|M0)              r97.0<1>:d    r1.0<16;16,1>:uw                
        mov (16|M16)             r99.0<1>:d    r2.0<16;16,1>:uw                
        mov (16|M0)              r106.0<1>:f   0.0:f                               {Compacted}
        mov (16|M16)             r108.0<1>:f   0.0:f                               {Compacted}
        mov (16|M0)              r110.0<1>:f   0.0:f                               {Compacted}
        mov (16|M16)             r112.0<1>:f   0.0:f                               {Compacted}
        mov (16|M0)              r114.0<1>:f   0.0:f                               {Compacted}
        mov (16|M16)             r116.0<1>:f   0.0:f                               {Compacted}
        mov (16|M0)              r118.0<1>:f   0.0:f                               {Compacted}
        mov (16|M16)             r120.0<1>:f   0.0:f                               {Compacted}
        shl (16|M0)              r101.0<1>:d   r97.0<8;8,1>:d    4:w               {Compacted,@7}
        shl (16|M16)             r103.0<1>:d   r99.0<8;8,1>:d    4:w               {Compacted,@7}
(W)     mov (1|M0)               r105.0<1>:f   0.0:f                               {Compacted}
L248:
        sync.nop                             null                             {Compacted,$0.src}
        add (16|M0)              r3.0<1>:d     r105.0<0;1,0>:d   r97.0<8;8,1>:d   {Compacted,@1}
        add (16|M16)             r5.0<1>:d     r105.0<0;1,0>:d   r99.0<8;8,1>:d   {Compacted}
        shl (16|M0)              r3.0<1>:d     r3.0<8;8,1>:d     4:w               {Compacted,@2}
        shl (16|M16)             r5.0<1>:d     r5.0<8;8,1>:d     4:w               {Compacted,@2}
        send.dc1 (16|M0)         r9       r3      null    0x0            0x04805001           {@2,$1} // wr:2+0, rd:8; untyped surface read with xyzw
        send.dc1 (16|M16)        r17      r5      null    0x0            0x04805001           {@1,$2} // wr:2+0, rd:8; untyped surface read with xyzw
(W)     mov (1|M0)               r105.3<1>:ud  f0.0<0;1,0>:ud                   {Compacted}
(W)     mov (1|M0)               f0.0<1>:ud    0x0:ud                             
        cmp (32|M0)   (eq)f0.0   null<1>:uw    r2.0<0;1,0>:uw    r2.0<0;1,0>:uw  
        send.dc1 (16|M0)         null     r101    r9      0x200            0x040250FE           {@7,$1} // wr:2+8, rd:0; untyped surface write with xyzw
        send.dc1 (16|M16)        null     r103    r17     0x200            0x040250FE           {@7,$2} // wr:2+8, rd:0; untyped surface write with xyzw
(W)     csel (4|M0)   (eq)f0.0   r0.0<1>:w     r0.0<4;1>:w       r0.0<4;1>:w       r0.0<1>:w       
(W&f0.0.any32h) send.dc0 (8|M0)   r25     r87     null    0x0            0x0219E0FE           {$3} // wr:1h+0, rd:1; synchronized SLM fence
(W&f0.0.any32h) and (8|M0)       r26.0<1>:ud   r87.2<0;1,0>:ud   0x7F000000:ud             
(W)     mov (8|M0)               null<1>:ud    r25.0<8;8,1>:ud                  {$3.dst}
(W&f0.0.any32h) send.gtwy (1|M0)   null   r26     null    0x0            0x02000004           {@2,$4} // wr:1+0, rd:0; signal barrier
(W)     sync.bar                             null                            
(W&f0.0.any32h) mov (1|M0)       r105.1<1>:f   0.0:f                              
(W)     mov (1|M0)               f0.0<1>:ud    r105.3<0;1,0>:ud                 {@7}
L520:
(W)     mov (1|M0)               r105.3<1>:ud  f1.0<0;1,0>:ud                   {Compacted}
(W)     mov (1|M0)               f1.0<1>:ud    0x0:ud                             
        cmp (32|M0)   (eq)f1.0   null<1>:uw    r2.0<0;1,0>:uw    r2.0<0;1,0>:uw  
(W&f1.0.any32h) mov (1|M0)       f1.0<1>:ud    0xFFFFFFFF:ud                             
(W)     mov (1|M0)               r105.2<1>:ud  f0.0<0;1,0>:ud                   {Compacted}
(W&f1.0) add (1|M0)              r3.0<1>:d     r105.0<0;1,0>:d   r105.1<0;1,0>:d  {@7}
(W&f1.0) or (1|M0)               r4.0<1>:d     r105.1<0;1,0>:d   1:w              
(W&f1.0) or (1|M0)               r8.0<1>:d     r105.1<0;1,0>:d   2:w              
(W&f1.0) shl (1|M0)              r5.0<1>:d     r3.0<0;1,0>:d     6:w               {@3}
(W&f1.0) add (1|M0)              r6.0<1>:d     r105.0<0;1,0>:d   r4.0<0;1,0>:d    {@3}
(W&f1.0) or (1|M0)               r15.0<1>:d    r105.1<0;1,0>:d   3:w               {$1.src}
(W&f1.0) add (1|M0)              r14.0<1>:d    r105.0<0;1,0>:d   r8.0<0;1,0>:d    {@4}
        add (16|M0)              r9.0<1>:d     r5.0<0;1,0>:d     r97.0<8;8,1>:d   {Compacted,@4}
        add (16|M16)             r11.0<1>:d    r5.0<0;1,0>:d     r99.0<8;8,1>:d   {Compacted}
(W&f1.0) shl (1|M0)              r13.0<1>:d    r6.0<0;1,0>:d     6:w               {@5}
        sync.nop                             null                             {Compacted,$2.src}
(W&f1.0) add (1|M0)              r21.0<1>:d    r105.0<0;1,0>:d   r15.0<0;1,0>:d   {@5}
(W&f1.0) shl (1|M0)              r20.0<1>:d    r14.0<0;1,0>:d    6:w               {@5}
        add (16|M0)              r16.0<1>:d    r13.0<0;1,0>:d    r97.0<8;8,1>:d   {Compacted,@3}
        add (16|M16)             r18.0<1>:d    r13.0<0;1,0>:d    r99.0<8;8,1>:d   {Compacted}
        shl (16|M0)              r9.0<1>:d     r9.0<8;8,1>:d     4:w               {Compacted,@7}
        shl (16|M16)             r11.0<1>:d    r11.0<8;8,1>:d    4:w               {Compacted,@7}
        sync.nop                             null                             {Compacted,$4.src}
(W&f1.0) shl (1|M0)              r26.0<1>:d    r21.0<0;1,0>:d    6:w               {@6}
        add (16|M0)              r22.0<1>:d    r20.0<0;1,0>:d    r97.0<8;8,1>:d   {Compacted,@6}
        add (16|M16)             r24.0<1>:d    r20.0<0;1,0>:d    r99.0<8;8,1>:d   {Compacted}
        shl (16|M0)              r16.0<1>:d    r16.0<8;8,1>:d    4:w               {Compacted,@7}
        shl (16|M16)             r18.0<1>:d    r18.0<8;8,1>:d    4:w               {Compacted,@7}
        send.dc1 (16|M0)         r27      r9      null    0x0            0x04805000           {@7,$5} // wr:2+0, rd:8; untyped surface read with xyzw
        send.dc1 (16|M16)        r35      r11     null    0x0            0x04805000           {@6,$6} // wr:2+0, rd:8; untyped surface read with xyzw
        add (16|M0)              r43.0<1>:d    r26.0<0;1,0>:d    r97.0<8;8,1>:d   {Compacted,@5}
        add (16|M16)             r45.0<1>:d    r26.0<0;1,0>:d    r99.0<8;8,1>:d   {Compacted}
        shl (16|M0)              r22.0<1>:d    r22.0<8;8,1>:d    4:w               {Compacted,@6}
        shl (16|M16)             r24.0<1>:d    r24.0<8;8,1>:d    4:w               {Compacted,@6}
        send.dc1 (16|M0)         r47      r16     null    0x0            0x04805000           {@6,$7} // wr:2+0, rd:8; untyped surface read with xyzw
        send.dc1 (16|M16)        r55      r18     null    0x0            0x04805000           {@5,$8} // wr:2+0, rd:8; untyped surface read with xyzw
        shl (16|M0)              r43.0<1>:d    r43.0<8;8,1>:d    4:w               {Compacted,@4}
        shl (16|M16)             r45.0<1>:d    r45.0<8;8,1>:d    4:w               {Compacted,@4}
        send.dc1 (16|M0)         r63      r22     null    0x0            0x04805000           {@4,$9} // wr:2+0, rd:8; untyped surface read with xyzw
        send.dc1 (16|M16)        r71      r24     null    0x0            0x04805000           {@3,$10} // wr:2+0, rd:8; untyped surface read with xyzw
        send.dc1 (16|M0)         r79      r43     null    0x0            0x04805000           {@2,$11} // wr:2+0, rd:8; untyped surface read with xyzw
        sync.allrd                           ($7,$9)                
        send.dc1 (16|M16)        r17      r45     null    0x0            0x04805000           {@1,$12} // wr:2+0, rd:8; untyped surface read with xyzw
(W&f1.0) shl (1|M0)              r25.0<1>:d    r105.1<0;1,0>:d   4:w               {$10.src}
(W&f1.0) shl (1|M0)              r45.0<1>:d    r8.0<0;1,0>:d     4:w               {$12.src}
(W&f1.0) shr (1|M0)              r26.2<1>:ud   r25.0<0;1,0>:ud   0x4:uw              {@2}
(W&f1.0) shr (1|M0)              r46.2<1>:ud   r45.0<0;1,0>:ud   0x4:uw              {@2}
(W)     csel (4|M0)   (eq)f0.0   r0.0<1>:w     r0.0<4;1>:w       r0.0<4;1>:w       r0.0<1>:w       
        sync.nop                             null                             {Compacted,$11.src}
(W&f1.0) send.dc0 (8|M0)         r44      r26     null    0x0            0x021802FE           {@3,$13} // wr:1h+0, rd:1; oword block read x2
(W)     csel (4|M0)   (eq)f0.0   r0.0<1>:w     r0.0<4;1>:w       r0.0<4;1>:w       r0.0<1>:w        {@1}
(W&f1.0) send.dc0 (8|M0)         r88      r46     null    0x0            0x021802FE           {@3,$14} // wr:1h+0, rd:1; oword block read x2
(W)     cmp (16|M0)   (lt)f0.0   null<1>:d     r15.0<0;1,0>:ud   0x3F:uw             
(W&~f1.0) mov (1|M0)             f0.0<1>:ud    r105.2<0;1,0>:ud                
(W)     mov (1|M0)               r105.2<1>:ud  f0.0<0;1,0>:ud                   {Compacted}
        sync.nop                             null                             {Compacted,$13.dst}
        mad (16|M0)              r89.0<1>:f    r118.0<8;1>:f     r27.0<8;1>:f      r44.0<0>:f       {Compacted,$5.dst}
        mad (16|M0)              r3.0<1>:f     r114.0<8;1>:f     r29.0<8;1>:f      r44.1<0>:f       {Compacted}
        mad (16|M0)              r9.0<1>:f     r110.0<8;1>:f     r31.0<8;1>:f      r44.2<0>:f       {Compacted}
        mad (16|M0)              r13.0<1>:f    r106.0<8;1>:f     r33.0<8;1>:f      r44.3<0>:f       {Compacted}
        mad (16|M16)             acc0.0<1>:f   r120.0<8;1>:f     r35.0<8;1>:f      r44.0<0>:f       {Compacted,$6.dst}
        mad (16|M16)             r5.0<1>:f     r116.0<8;1>:f     r37.0<8;1>:f      r44.1<0>:f       {Compacted}
        mad (16|M16)             r11.0<1>:f    r112.0<8;1>:f     r39.0<8;1>:f      r44.2<0>:f       {Compacted}
        mad (16|M16)             r25.0<1>:f    r108.0<8;1>:f     r41.0<8;1>:f      r44.3<0>:f       {Compacted}
(W)     cmp (16|M16)  (lt)f0.0   null<1>:d     r15.0<0;1,0>:ud   0x3F:uw             
        mad (16|M0)              r27.0<1>:f    r89.0<8;1>:f      r47.0<8;1>:f      r44.4<0>:f       {Compacted,@7,$7.dst}
        mad (16|M0)              r31.0<1>:f    r3.0<8;1>:f       r49.0<8;1>:f      r44.5<0>:f       {Compacted,@7}
        mad (16|M0)              r35.0<1>:f    r9.0<8;1>:f       r51.0<8;1>:f      r44.6<0>:f       {Compacted,@7}
        mad (16|M16)             acc0.0<1>:f   acc0.0<8;1>:f     r55.0<8;1>:f      r44.4<0>:f       {$8.dst}
        mad (16|M16)             r33.0<1>:f    r5.0<8;1>:f       r57.0<8;1>:f      r44.5<0>:f       {Compacted,@7}
        mad (16|M16)             r37.0<1>:f    r11.0<8;1>:f      r59.0<8;1>:f      r44.6<0>:f       {Compacted,@7}
        mad (16|M0)              r39.0<1>:f    r13.0<8;1>:f      r53.0<8;1>:f      r44.7<0>:f       {Compacted}
        mad (16|M16)             r41.0<1>:f    r25.0<8;1>:f      r61.0<8;1>:f      r44.7<0>:f       {Compacted,@7}
(W&~f1.0) mov (1|M0)             f0.0<1>:ud    r105.2<0;1,0>:ud                
        sync.nop                             null                             {Compacted,$14.dst}
        mad (16|M0)              r47.0<1>:f    r31.0<8;1>:f      r65.0<8;1>:f      r88.1<0>:f       {Compacted,@7,$9.dst}
        mad (16|M0)              r51.0<1>:f    r35.0<8;1>:f      r67.0<8;1>:f      r88.2<0>:f       {Compacted,@7}
        mad (16|M16)             acc0.0<1>:f   acc0.0<8;1>:f     r71.0<8;1>:f      r88.0<0>:f       {$10.dst}
        mad (16|M16)             r49.0<1>:f    r33.0<8;1>:f      r73.0<8;1>:f      r88.1<0>:f       {Compacted,@7}
        mad (16|M16)             r53.0<1>:f    r37.0<8;1>:f      r75.0<8;1>:f      r88.2<0>:f       {Compacted,@7}
        mad (16|M0)              r55.0<1>:f    r39.0<8;1>:f      r69.0<8;1>:f      r88.3<0>:f       {Compacted,@7}
        mad (16|M0)              r43.0<1>:f    r27.0<8;1>:f      r63.0<8;1>:f      r88.0<0>:f       {Compacted}
        mad (16|M16)             r57.0<1>:f    r41.0<8;1>:f      r77.0<8;1>:f      r88.3<0>:f       {Compacted,@7}
(W)     mov (1|M0)               f1.0<1>:ud    r105.3<0;1,0>:ud                
        mad (16|M0)              r114.0<1>:f   r47.0<8;1>:f      r81.0<8;1>:f      r88.5<0>:f       {Compacted,@7,$11.dst}
        mad (16|M0)              r110.0<1>:f   r51.0<8;1>:f      r83.0<8;1>:f      r88.6<0>:f       {Compacted,@7}
        mad (16|M16)             r120.0<1>:f   acc0.0<8;1>:f     r17.0<8;1>:f      r88.4<0>:f       {$12.dst}
        mad (16|M16)             r116.0<1>:f   r49.0<8;1>:f      r19.0<8;1>:f      r88.5<0>:f       {Compacted,@7}
        mad (16|M16)             r112.0<1>:f   r53.0<8;1>:f      r21.0<8;1>:f      r88.6<0>:f       {Compacted,@7}
        mad (16|M0)              r106.0<1>:f   r55.0<8;1>:f      r85.0<8;1>:f      r88.7<0>:f       {Compacted,@7}
        mad (16|M0)              r118.0<1>:f   r43.0<8;1>:f      r79.0<8;1>:f      r88.4<0>:f       {Compacted,@7}
        mad (16|M16)             r108.0<1>:f   r57.0<8;1>:f      r23.0<8;1>:f      r88.7<0>:f       {Compacted,@7}
(W)     csel (4|M0)   (eq)f0.0   r0.0<1>:w     r0.0<4;1>:w       r0.0<4;1>:w       r0.0<1>:w       
(~f0.0) break (32|M0)                        L1672                  L1672                
L1600:
(W)     mov (1|M0)               r105.3<1>:ud  f0.0<0;1,0>:ud                   {Compacted}
(W)     mov (1|M0)               f0.0<1>:ud    0x0:ud                             
        cmp (32|M0)   (eq)f0.0   null<1>:uw    r2.0<0;1,0>:uw    r2.0<0;1,0>:uw  
(W&f0.0.any32h) add (1|M0)       r105.1<1>:d   r105.1<0;1,0>:d   4:w              
(W)     mov (1|M0)               f0.0<1>:ud    r105.3<0;1,0>:ud                 {@4}
L1672:
        while (32|M0)                        L520                                
L1688:
(W)     mov (1|M0)               r105.3<1>:ud  f0.0<0;1,0>:ud                   {Compacted}
(W)     mov (1|M0)               f0.0<1>:ud    0x0:ud                             
        cmp (32|M0)   (eq)f0.0   null<1>:uw    r2.0<0;1,0>:uw    r2.0<0;1,0>:uw  
(W&f0.0.any32h) mov (1|M0)       f0.0<1>:ud    0xFFFFFFFF:ud                             
(W)     csel (4|M0)   (eq)f0.0   r0.0<1>:w     r0.0<4;1>:w       r0.0<4;1>:w       r0.0<1>:w       
(W&f0.0) send.dc0 (8|M0)         r3       r87     null    0x0            0x0219E0FE           {$15} // wr:1h+0, rd:1; synchronized SLM fence
(W&f0.0) and (8|M0)              r4.0<1>:ud    r87.2<0;1,0>:ud   0x7F000000:ud             
(W)     mov (8|M0)               null<1>:ud    r3.0<8;8,1>:ud                   {$15.dst}
(W&f0.0) send.gtwy (1|M0)        null     r4      null    0x0            0x02000004           {@2,$0} // wr:1+0, rd:0; signal barrier
(W)     sync.bar                             null                            
(W&f0.0) add (1|M0)              r105.0<1>:d   r105.0<0;1,0>:d   64:w              
(W)     mov (1|M0)               r105.2<1>:ud  f1.0<0;1,0>:ud                   {Compacted}
(W)     cmp (16|M0)   (lt)f1.0   null<1>:d     r105.0<0;1,0>:d   r8.6<0;1,0>:d    {@2}
(W&~f0.0) mov (1|M0)             f1.0<1>:ud    r105.2<0;1,0>:ud                 {@2}
(W)     mov (1|M0)               r105.2<1>:ud  f1.0<0;1,0>:ud                   {Compacted}
(W)     cmp (16|M16)  (lt)f1.0   null<1>:d     r105.0<0;1,0>:d   r8.6<0;1,0>:d   
(W&~f0.0) mov (1|M0)             f1.0<1>:ud    r105.2<0;1,0>:ud                 {@2}
(W)     mov (1|M0)               f0.0<1>:ud    r105.3<0;1,0>:ud                
(W)     csel (4|M0)   (eq)f0.0   r0.0<1>:w     r0.0<4;1>:w       r0.0<4;1>:w       r0.0<1>:w        {@7}
(f1.0)  while (32|M0)                        L248                                
L1984:
        add (16|M0)              acc0.0<1>:f   r118.0<8;8,1>:f   r114.0<8;8,1>:f  {Compacted}
        add (16|M16)             r5.0<1>:f     r120.0<8;8,1>:f   r116.0<8;8,1>:f  {Compacted}
        add (16|M0)              acc0.0<1>:f   acc0.0<8;8,1>:f   r110.0<8;8,1>:f  {Compacted}
        add (16|M16)             r5.0<1>:f     r5.0<8;8,1>:f     r112.0<8;8,1>:f  {Compacted,@2}
        add (16|M0)              r93.0<1>:f    acc0.0<8;8,1>:f   r106.0<8;8,1>:f  {Compacted}
        add (16|M16)             r95.0<1>:f    r5.0<8;8,1>:f     r108.0<8;8,1>:f  {Compacted,@2}
L2032:
        endif (32|M0)                        L2048                                
L2048:
(W)     shl (1|M0)               r3.0<1>:d     r87.1<0;1,0>:d    6:w               {Compacted}
(W)     mov (8|M0)               r127.0<1>:f   r87.0<8;8,1>:f                   {Compacted}
        sync.nop                             null                             {Compacted,$0.src}
        add (16|M0)              r4.0<1>:d     r3.0<0;1,0>:d     r1.0<16;16,1>:uw {@2}
        add (16|M16)             r9.0<1>:d     r3.0<0;1,0>:d     r2.0<16;16,1>:uw
        add (16|M0)              r4.0<1>:d     r4.0<8;8,1>:d     r7.0<0;1,0>:d    {Compacted,@2}
        add (16|M16)             r9.0<1>:d     r9.0<8;8,1>:d     r7.0<0;1,0>:d    {Compacted,@2}
        shl (16|M0)              r4.0<1>:d     r4.0<8;8,1>:d     2:w               {Compacted,@2}
        shl (16|M16)             r9.0<1>:d     r9.0<8;8,1>:d     2:w               {Compacted,@2}
        send.dc1 (16|M0)         null     r4      r93     0x80            0x04025E02           {@2,$1} // wr:2+2, rd:0; untyped surface write with x
        send.dc1 (16|M16)        null     r9      r95     0x80            0x04025E02           {@1,$2} // wr:2+2, rd:0; untyped surface write with x
(W)     send.dc0 (8|M0)          r11      r87     null    0x0            0x0219E000           {$3} // wr:1h+0, rd:1; synchronized global fence flushing
(W)     mov (8|M0)               null<1>:ud    r11.0<8;8,1>:ud                  {$3.dst}
(W)     send.dc0 (8|M0)          r12      r87     null    0x0            0x0219E0FE           {$4} // wr:1h+0, rd:1; synchronized SLM fence
(W)     mov (8|M0)               null<1>:ud    r12.0<8;8,1>:ud                  {$4.dst}
(W)     send.ts (8|M0)           null     r127    null    0x0            0x02000010           {EOT,@1} // wr:1+0, rd:0; end of thread
L2248:
