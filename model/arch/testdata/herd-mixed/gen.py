# gen.py SEED COUNT DIR: random mixed-size AArch64 tests over one array x (see README.md).
import random, os, sys
random.seed(int(sys.argv[1]) if len(sys.argv)>1 else 20)
out=sys.argv[3] if len(sys.argv)>3 else '.'
ST={1:'STRB W',2:'STRH W',4:'STR W',8:'STR X'}
LD={1:'LDRB W',2:'LDRH W',4:'LDR W',8:'LDR X'}
TY={1:'uint8_t',2:'uint16_t',4:'uint32_t',8:'uint64_t'}
def gen(i):
    es=random.choice([1,2,4,8]); total=random.choice([8,16]); n=total//es
    init=''
    if random.random()<0.4:
        vals=[random.randint(0,200) for _ in range(n)]
        init=' = {%s}'%','.join(map(str,vals))
    nth=random.choice([2,2,2,3])
    threads=[]; regs=[]; condcells=[]; x64=[]
    misal = random.random()<0.15
    val=1
    for t in range(nth):
        code=[]; r=1
        nacc=random.choice([1,2,2,3]) if nth==2 else random.choice([1,2])
        for k in range(nacc):
            sz=random.choice([1,2,4,8])
            if misal and k==0 and t==0:
                off=random.randrange(0,total-sz+1)
                if off%sz==0: off=(off+1) if off+1+sz<=total else off
            else:
                off=random.randrange(0,total//sz)*sz
            if k>0:
                f=random.random()
                if f<0.3: code.append('DMB SY')
                elif f<0.45 and regs and regs[-1][0]==t and code and code[-1].startswith('LD'):
                    pr=regs[-1][1]
                    code.append('EOR W9,W%s,W%s'%(pr,pr)); code.append('ADD W9,W9,#%d'%off)
                    off=None
            store = random.random()<0.5 if t<nth-1 else random.random()<0.25
            if t==0 and k==0: store=True
            addr='[X5,#%d]'%off if off is not None else '[X5,W9,SXTW]'
            if store:
                v=random.randint(1,250)*(257 if sz>1 else 1)
                p='W' if sz<8 else 'X'
                code.append('MOV %s%d,#%d'%(p,r,v))
                code.append('%s%d,%s'%(ST[sz],r,addr))
            else:
                code.append('%s%d,%s'%(LD[sz],r,addr)); regs.append((t,r))
                if sz==8: x64.append('uint64_t %d:X%d;'%(t,r))
            r+=1
        threads.append(code)
    if not regs:
        threads[-1].append('LDR X7,[X5]'); regs.append((nth-1,7)); x64.append('uint64_t %d:X7;'%(nth-1))
    cond=' /\\ '.join('%d:X%d=0'%(t,r) for t,r in random.sample(regs,min(2,len(regs))))
    if random.random()<0.3:
        c=random.randrange(n); cond+=' /\\ x[%d]=0'%c
    name='mix%03d'%i
    L=max(len(c) for c in threads)
    w=max(len(s) for c in threads for s in c)+1
    rows=[' | '.join(('P%d'%t).ljust(w) for t in range(nth))+' ;']
    for k in range(L):
        rows.append(' | '.join((threads[t][k] if k<len(threads[t]) else '').ljust(w) for t in range(nth))+' ;')
    src='AArch64 %s\n{\n%s x[%d]%s;\n%s\n%s\n}\n%s\nexists (%s)\n'%(name,TY[es],n,init,' '.join('%d:X5=x;'%t for t in range(nth)),' '.join(x64),'\n'.join(rows),cond)
    open(os.path.join(out,name+'.litmus'),'w').write(src)
for i in range(int(sys.argv[2]) if len(sys.argv)>2 else 60): gen(i)
